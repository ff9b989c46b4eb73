import type { TDeviceChangeMessage, TMessage } from "@aquapilot/contract/wire";
import type { HubChannelSpec, HubConnectionLike } from "./hub-channel.js";

type HubConnectionModule = typeof import("./hub-connection.js");

let loading: Promise<HubConnectionModule> | null = null;

/**
 * Loads the SignalR client once (issue 12: it stays off the first screen) and fills {@link deviceChangeSchema} and
 * {@link messageSchema} (see {@link loadHubSchemas}). Rejects when a chunk cannot be loaded; the next call tries again.
 */
export function loadHubModule(): Promise<HubConnectionModule> {
  loading ??= Promise.all([import("./hub-connection.js"), loadHubSchemas()]).then(
    ([m, schemas]) => {
      deviceChangeSchema.use(schemas.deviceChange);
      messageSchema.use(schemas.message);
      return m;
    },
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

/** What a hub message's field must be: a `typeof` name, `typeof` names with "null", or the allowed values. */
type FieldRule = string | readonly string[];

/**
 * A check of the fields the app reads from a hub message, in the shape of a schema's `safeParse`: each named field
 * must have one of the rule's `typeof` names ("null" for null), or, for a `values` rule, be one of those values.
 * Production's check (issue 12 "validate answers in development and tests only"): the server speaks the same
 * contract, and a message without what the screens need is still dropped rather than shown half.
 * @param fields field name → rule, e.g. `{ deviceId: "string", familyId: ["string", "null"] }`.
 * @param values field name → allowed values, e.g. `{ kind: ["state", "online"] }`.
 */
export function productionCheck<T>(
  fields: Record<string, FieldRule>,
  values: Record<string, readonly unknown[]> = {},
): SchemaLike<T> {
  return {
    safeParse(value: unknown) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return { success: false, error: { message: "not an object" } };
      }
      const record = value as Record<string, unknown>;
      for (const [name, rule] of Object.entries(fields)) {
        const kind = record[name] === null ? "null" : typeof record[name];
        if (!(typeof rule === "string" ? [rule] : rule).includes(kind)) {
          return { success: false, error: { message: `${name}: expected ${rule}, got ${kind}` } };
        }
      }
      for (const [name, allowed] of Object.entries(values)) {
        if (!allowed.includes(record[name])) {
          return { success: false, error: { message: `${name}: ${String(record[name])} is not one of ${allowed}` } };
        }
      }
      return { success: true, data: value as T };
    },
  };
}

/** Production's checks of the hubs' messages: the fields of `TDeviceChangeMessage` and `TMessage` the app reads. */
export const PRODUCTION_CHECKS = {
  deviceChange: productionCheck<TDeviceChangeMessage>(
    { deviceId: "string", online: "boolean", station: ["number", "null"], lastReportTime: ["string", "null"] },
    { kind: ["state", "online", "event", "ack"] },
  ),
  message: productionCheck<TMessage>({
    id: "string",
    type: "number",
    title: "string",
    content: "string",
    isRead: "boolean",
    creationTime: "string",
    deviceId: ["string", "null"],
  }),
};

/**
 * The hubs' message checks: the contract's zod schemas in development and tests (hub-schemas.ts, a chunk of its own),
 * {@link PRODUCTION_CHECKS} in a production build, which then holds neither zod nor the contract's schemas.
 */
function loadHubSchemas(): Promise<{ deviceChange: unknown; message: unknown }> {
  if (!import.meta.env.DEV) return Promise.resolve(PRODUCTION_CHECKS);
  return import("./hub-schemas.js").then((m) => ({ deviceChange: m.ZDeviceChangeMessage, message: m.ZMessage }));
}

type SchemaLike<T> = HubChannelSpec<T>["schema"];

/**
 * A message schema that is loaded later: `safeParse` delegates to the contract schema once {@link loadHubModule} has
 * run and refuses every message before (none can arrive: a channel's connection starts only after the load).
 */
class DeferredSchema<T> implements SchemaLike<T> {
  private schema: SchemaLike<T> | null = null;
  use(schema: unknown): void {
    this.schema = schema as SchemaLike<T>;
  }
  safeParse(value: unknown): ReturnType<SchemaLike<T>["safeParse"]> {
    if (!this.schema) return { success: false, error: { message: "hub schemas not loaded" } };
    return this.schema.safeParse(value);
  }
}

/** The contract schema of hub 1's argument (`ZDeviceChangeMessage`), usable once {@link loadHubModule} ran. */
export const deviceChangeSchema = new DeferredSchema<TDeviceChangeMessage>();
/** The contract schema of hub 2's argument (`ZMessage`), usable once {@link loadHubModule} ran. */
export const messageSchema = new DeferredSchema<TMessage>();

/**
 * A {@link HubConnectionLike} whose real SignalR connection is built by `create` after {@link loadHubModule}
 * resolves: handlers registered before are handed on; `start()` waits for the load (and rejects when it fails, so the
 * channel retries with its backoff); `stop()` before the connection exists stops it as soon as it is built.
 */
export function lazyHubConnection(create: (m: HubConnectionModule) => HubConnectionLike): HubConnectionLike {
  let real: HubConnectionLike | null = null;
  let stopped = false;
  const pending: Array<(c: HubConnectionLike) => void> = [];
  const whenReal = (apply: (c: HubConnectionLike) => void) => (real ? apply(real) : pending.push(apply));
  const connect = async (): Promise<HubConnectionLike> => {
    if (real) return real;
    const made = create(await loadHubModule());
    real = made;
    for (const apply of pending.splice(0)) apply(made);
    return made;
  };
  return {
    async start() {
      const c = await connect();
      if (stopped) throw new Error("stopped before start");
      await c.start();
    },
    async stop() {
      stopped = true;
      if (real) await real.stop();
    },
    on: (method, handler) => whenReal((c) => c.on(method, handler)),
    onclose: (cb) => whenReal((c) => c.onclose(cb)),
    onreconnecting: (cb) => whenReal((c) => c.onreconnecting(cb)),
    onreconnected: (cb) => whenReal((c) => c.onreconnected(cb)),
  };
}
