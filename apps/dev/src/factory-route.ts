import { normaliseMac } from "@aquapilot/contract";
import type { Db } from "@aquapilot/server/db/index.ts";
import { FACTORY_SECRET_MIN_LENGTH, provisionDevice } from "@aquapilot/server/modules/devices/index.ts";
import type { DeviceAccountsPort } from "@aquapilot/server/ports.ts";
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";

/** Body of POST /dev/factory/devices: a device's factory identity and clear secret. */
export const ZFactoryDevice = z.object({
  mac: z.string().refine((m) => normaliseMac(m).length === 12, "mac needs 12 hex digits"),
  secret: z.string().min(FACTORY_SECRET_MIN_LENGTH).max(256),
  model: z.string().max(64).optional(),
  serialNumber: z.string().max(64).optional(),
  deviceSerialNumber: z.string().max(64).optional(),
  name: z.string().min(1).max(64).optional(),
});

/**
 * Development-only factory endpoint `POST /dev/factory/devices` (docs/device-protocol.md §2; mounted by
 * routes.ts `registerDevelopmentRoutes` outside production):
 * stores a device's MAC and argon2id-hashed secret, unbound, so a simulated device can connect to the broker and
 * be paired with its code MAC:SECRET. Registering a known MAC again replaces its secret (provisionDevice). With
 * `accounts` (an external broker the server provisions) the device's broker account is written too; a
 * broker that is down does not fail the call (the account is retried), `brokerProvisioned` tells which.
 * Answers 201 `{id, mac, created: true, brokerProvisioned}` or 200 `{…, created: false, …}`; 400 `{error}` on a bad
 * body.
 */
export const factoryRoutes: FastifyPluginAsync<{ db: Db; accounts?: DeviceAccountsPort }> = async (app, opts) => {
  app.post("/dev/factory/devices", async (request, reply) => {
    const parsed = ZFactoryDevice.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ error: parsed.error.issues.map((i) => i.message).join("; ") });
    const body = parsed.data;
    const mac = normaliseMac(body.mac);
    const { id, created } = await provisionDevice(opts.db, {
      mac,
      secret: body.secret,
      name: body.name ?? `${body.model ?? "Softener"} ${mac.slice(-4)}`,
      model: body.model ?? null,
      serialNumber: body.serialNumber ?? null,
      deviceSerialNumber: body.deviceSerialNumber ?? null,
    });
    const brokerProvisioned = opts.accounts ? await opts.accounts.provision(mac, body.secret) : true;
    return reply.code(created ? 201 : 200).send({ id, mac, created, brokerProvisioned });
  });
};
