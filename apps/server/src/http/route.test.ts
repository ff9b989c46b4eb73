import { type Access, PERMISSIONS } from "@aquapilot/contract";
import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import type { AuthUser } from "../auth/auth-service.ts";
import { authorizeCaller } from "./route.ts";

const asUser = (user: Partial<AuthUser> | null) => ({ user }) as unknown as FastifyRequest;
const status = (fn: () => void): number | null => {
  try {
    fn();
    return null;
  } catch (err) {
    return (err as { status: number }).status;
  }
};

describe("the caller part of an endpoint's declared access (spec §6)", () => {
  const master: Access = { caller: PERMISSIONS.master };
  const control: Access = { caller: PERMISSIONS.deviceControl };

  it("lets anyone through an open call and nobody anonymous through any other", () => {
    expect(status(() => authorizeCaller(asUser(null), { caller: "open" }))).toBeNull();
    expect(status(() => authorizeCaller(asUser(null), { caller: "signedIn" }))).toBe(401);
    expect(status(() => authorizeCaller(asUser(null), control))).toBe(401);
  });

  it("answers 403 when the caller's grantedPolicies lack the named permission", () => {
    expect(status(() => authorizeCaller(asUser({ id: "u", isMaster: false }), control))).toBeNull();
    expect(status(() => authorizeCaller(asUser({ id: "u", isMaster: false }), master))).toBe(403);
    expect(status(() => authorizeCaller(asUser({ id: "u", isMaster: true }), master))).toBeNull();
  });
});
