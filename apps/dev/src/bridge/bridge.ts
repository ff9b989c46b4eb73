import {
  DEV_BRIDGE_PATHS,
  ZDiscover,
  ZDiscoverResult,
  ZJoinAccessPoint,
  ZJoinAccessPointResult,
  ZPhoneWifi,
  ZSendJoinPacket,
  ZSendJoinPacketResult,
  ZWifiNetworkList,
  ZWifiSelect,
} from "@aquapilot/contract";
import { fromBase64 } from "@aquapilot/provisioning";
import type { FastifyError, FastifyPluginAsync } from "fastify";
import type { z } from "zod";
import { NotOnHomeNetwork, SimulatedPhone, type SimulatedPhoneOptions } from "./phone.ts";

/** A refused bridge call: answered as `{error}` with `status`. */
class BridgeFailure extends Error {
  readonly status: number;
  readonly error: string;
  constructor(status: number, error: string) {
    super(`dev bridge: ${error}`);
    this.status = status;
    this.error = error;
    this.name = "BridgeFailure";
  }
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new BridgeFailure(400, "invalid-request");
  return parsed.data;
}

function packetBytes(base64: string): Uint8Array {
  try {
    return fromBase64(base64);
  } catch {
    throw new BridgeFailure(400, "invalid-request");
  }
}

/** Options of {@link devBridgeRoutes}: the simulator's ports and the phone's waits. */
export type DevBridgeOptions = SimulatedPhoneOptions;

/**
 * The development bridge (docs/device-protocol.md §13.6; packages/contract/src/dev-bridge.ts), plain JSON,
 * for one {@link SimulatedPhone} per registration (one per server process). Mount it only when APP_ENV is not
 * production (apps/dev routes.ts `registerDevelopmentRoutes`).
 *
 * - `GET /dev/bridge/wifi` → ZPhoneWifi; `GET /dev/bridge/wifi/networks` → ZWifiNetworkList.
 * - `POST /dev/bridge/wifi/select` `{ssid}` → ZPhoneWifi; 404 `{error: "not-found"}` for a name not in range.
 * - `POST /dev/bridge/ap/join` `{ssid}` → ZJoinAccessPointResult; `POST /dev/bridge/ap/leave` → ZPhoneWifi.
 * - `POST /dev/bridge/udp/join` `{packet}` (base64) → `{acknowledged}` within 3 s.
 * - `POST /dev/bridge/udp/discover` `{packet, timeoutMs}` → `{answers: [{address, packet}]}`; 409
 *   `{error: "not-on-home-network"}` while on the module's access point.
 *
 * UDP goes only to 127.0.0.1 at the configured SIM_AP_UDP_PORT / SIM_LAN_UDP_PORT. Bad bodies (schema, base64, JSON)
 * → 400 `{error: "invalid-request"}`; a socket failure → 500 `{error: "internal"}`.
 */
export const devBridgeRoutes: FastifyPluginAsync<DevBridgeOptions> = async (app, opts) => {
  const phone = new SimulatedPhone(opts);

  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    if (err instanceof BridgeFailure) return reply.code(err.status).send({ error: err.error });
    if (err instanceof NotOnHomeNetwork) return reply.code(409).send({ error: "not-on-home-network" });
    const status = (err as FastifyError).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) {
      return reply.code(400).send({ error: "invalid-request" });
    }
    request.log.error({ err, reqId: request.id }, "dev bridge failed");
    return reply.code(500).send({ error: "internal" });
  });

  const reply200 = (schema: z.ZodType) => ({ schema: { response: { 200: schema } } });

  app.get(DEV_BRIDGE_PATHS.wifi, reply200(ZPhoneWifi), async () => phone.wifi());
  app.get(DEV_BRIDGE_PATHS.networks, reply200(ZWifiNetworkList), async () => phone.listNetworks());
  app.post(DEV_BRIDGE_PATHS.select, reply200(ZPhoneWifi), async (request) => {
    const wifi = phone.select(parse(ZWifiSelect, request.body).ssid);
    if (!wifi) throw new BridgeFailure(404, "not-found");
    return wifi;
  });
  app.post(DEV_BRIDGE_PATHS.joinAccessPoint, reply200(ZJoinAccessPointResult), async (request) =>
    phone.joinAccessPoint(parse(ZJoinAccessPoint, request.body).ssid),
  );
  app.post(DEV_BRIDGE_PATHS.leaveAccessPoint, reply200(ZPhoneWifi), async () => phone.leaveAccessPoint());
  app.post(DEV_BRIDGE_PATHS.sendJoinPacket, reply200(ZSendJoinPacketResult), async (request) =>
    phone.sendJoinPacket(packetBytes(parse(ZSendJoinPacket, request.body).packet)),
  );
  app.post(DEV_BRIDGE_PATHS.discover, reply200(ZDiscoverResult), async (request) => {
    const body = parse(ZDiscover, request.body);
    return phone.discover(packetBytes(body.packet), body.timeoutMs);
  });
};
