import type { Endpoint } from "@aquapilot/contract";
import { z } from "zod";
import { api } from "../api/client.js";

/**
 * `POST /api/push-service/app/jpush/app-device-unbinding` with `registrationId` (spec §7 push). Not in
 * packages/contract yet, so it is declared here in the contract's shape; move it there when the server implements it.
 */
export const appDeviceUnbinding = {
  method: "POST",
  path: "/api/push-service/app/jpush/app-device-unbinding",
  query: z.object({ registrationId: z.string().min(1) }),
  body: undefined,
  params: undefined,
  result: z.unknown(),
  summary: "Unbind this phone's push registration from the user",
} satisfies Endpoint;

/** Unbinds the push registration (spec §4 Logout); failures are ignored (spec §8) and resolve false. */
export async function unbindPush(registrationId: string): Promise<boolean> {
  try {
    await api(appDeviceUnbinding, { query: { registrationId } });
    return true;
  } catch (err) {
    console.info("[push] unbind failed (ignored)", err);
    return false;
  }
}
