import type { TDeviceChangeMessage, TMessage } from "@aquapilot/contract/wire";
import { afterFirstScreen, nextTask } from "../../first-paint/scheduling.ts";
import type { HubChannelSpec, HubConnectionLike } from "./hub-channel.ts";

type HubConnectionModule = typeof import("./hub-connection.ts");

let loading: Promise<HubConnectionModule> | null = null;

/**
 * Loads the SignalR client once, after the first screen is in (`afterFirstScreen`: it stays off the first
 * screen and its requests never compete with the first screen's calls), and fills {@link deviceChangeSchema} and
 * {@link messageSchema} (see {@link loadHubSchemas}). Rejects when a chunk cannot be loaded; the next call tries again.
 */
export function loadHubModule(): Promise<HubConnectionModule> {
  loading ??= afterFirstScreen()
    .then(() => Promise.all([import("./hub-connection.ts"), loadHubSchemas()]))
    .then(
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

/**
 * The hubs' message checks: the contract's zod schemas in development and tests (hub-schemas.ts, a chunk of its own),
 * hub-checks.ts's `PRODUCTION_CHECKS` in a production build, which then holds neither zod nor the contract's schemas.
 */
function loadHubSchemas(): Promise<{ deviceChange: unknown; message: unknown }> {
  if (!import.meta.env.DEV) return import("./hub-checks.ts").then((m) => m.PRODUCTION_CHECKS);
  return import("./hub-schemas.ts").then((m) => ({ deviceChange: m.ZDeviceChangeMessage, message: m.ZMessage }));
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
 * channel retries with its backoff) and notes when the real start began (`startedAt`); `stop()` before the connection
 * exists stops it as soon as it is built.
 */
export function lazyHubConnection(create: (m: HubConnectionModule) => HubConnectionLike): HubConnectionLike {
  let real: HubConnectionLike | null = null;
  let stopped = false;
  const pending: Array<(c: HubConnectionLike) => void> = [];
  const whenReal = (apply: (c: HubConnectionLike) => void) => (real ? apply(real) : pending.push(apply));
  const connect = async (): Promise<HubConnectionLike> => {
    if (real) return real;
    const module = await loadHubModule();
    // Both hubs wait for the same load: each builds its connection in a task of its own, and starts it in another
    // (the two builds and negotiations in one task were a long task right after the first screen).
    await nextTask();
    if (real) return real;
    const made = create(module);
    real = made;
    for (const apply of pending.splice(0)) apply(made);
    return made;
  };
  let startedAt: number | undefined;
  return {
    async start() {
      const c = await connect();
      await nextTask();
      if (stopped) throw new Error("stopped before start");
      startedAt = Date.now();
      await c.start();
    },
    get startedAt() {
      return startedAt;
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
