/**
 * What both network-setup flows (spec §4) share: an injected clock, cancellable waits, time limits, the
 * run status and the progress percent with one decimal (spec §9).
 */

/** Timers of a flow, injected so tests drive time (vitest fake timers or a hand-made clock). Times in ms. */
export interface FlowClock {
  /** Current time, ms (any epoch; only differences are used). */
  now(): number;
  /** Calls `fn` after `ms` ms; answers a handle for {@link FlowClock.clearTimeout}. */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock: `Date.now` and the global timers (faked by `vi.useFakeTimers()` in tests). */
export const realClock: FlowClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Where a run is: running, or ended as failed, succeeded (device bound) or cancelled by the owner. */
export type FlowStatus = "running" | "failed" | "succeeded" | "cancelled";

/** Thrown inside a flow when its run was stopped (cancel or a time limit); `reason` says which. */
export class FlowStopped extends Error {
  readonly reason: unknown;
  constructor(reason: unknown) {
    super("flow stopped");
    this.reason = reason;
    this.name = "FlowStopped";
  }
}

/** Thrown by {@link withTimeout} when an operation took longer than its limit. */
export class OperationTimeout extends Error {
  readonly what: string;
  constructor(what: string) {
    super(`${what} timed out`);
    this.what = what;
    this.name = "OperationTimeout";
  }
}

/**
 * Waits `ms` ms on `clock`. Rejects with {@link FlowStopped} (carrying `signal.reason`) as soon as `signal` aborts,
 * or at once when it already has.
 */
export function sleep(clock: FlowClock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new FlowStopped(signal.reason));
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(new FlowStopped(signal?.reason));
    };
    const handle = clock.setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Settles like `work`, unless `ms` ms pass first (rejects {@link OperationTimeout} naming `what`) or `signal` aborts
 * (rejects {@link FlowStopped}). `work` itself is not interrupted; its late result is ignored.
 */
export function withTimeout<T>(
  clock: FlowClock,
  work: Promise<T>,
  ms: number,
  what: string,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      work.catch(() => {});
      return reject(new FlowStopped(signal.reason));
    }
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(handle);
      signal?.removeEventListener("abort", onAbort);
      fn();
    };
    const onAbort = () => finish(() => reject(new FlowStopped(signal?.reason)));
    const handle = clock.setTimeout(() => finish(() => reject(new OperationTimeout(what))), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
    work.then(
      (v) => finish(() => resolve(v)),
      (e) => finish(() => reject(e)),
    );
  });
}

/**
 * A progress value that creeps from `from` towards `to` (percent) while a phase lasts: after `elapsedMs` it has
 * covered `1 − e^(−elapsed/tau)` of the way, so the bar keeps moving without ever claiming the next phase.
 */
export function creep(from: number, to: number, elapsedMs: number, tauMs: number): number {
  const share = 1 - Math.exp(-Math.max(0, elapsedMs) / Math.max(1, tauMs));
  return from + (to - from) * share;
}

/** A percent rounded to one decimal and kept within 0–100 (spec §9 "Progress percent with one decimal"). */
export function roundPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value * 10) / 10));
}

/** Listeners of a run's snapshots; `emit` calls each, and a throwing listener never breaks the flow. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  /** Adds a listener; answers the function that removes it. */
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  /** Calls every listener with `value`. */
  emit(value: T): void {
    for (const l of [...this.set]) {
      try {
        l(value);
      } catch (err) {
        console.error("[network-setup] listener failed", err);
      }
    }
  }
}

/** What binding answers once a flow has the pairing code: the new device, for DeviceNetworkNameUpdate. */
export interface BoundDevice {
  id: string;
  familyId: string;
  name: string;
  mac: string;
}

/**
 * Binds the device with the pairing code "MAC:TOKEN" the module handed over (spec §7 device POST /). Rejects with
 * an error whose message is shown to the owner (e.g. the server's "not the administrator").
 */
export type BindDevice = (pairingCode: string) => Promise<BoundDevice>;

/** The message of an error thrown by binding, or null for an error without one. */
export function bindErrorMessage(err: unknown): string | null {
  return err instanceof Error && err.message ? err.message : null;
}

/** What every setup snapshot carries (times from the run's clock, ms). */
export interface RunSnapshot {
  status: FlowStatus;
  failure: { reason: string } | null;
  device: BoundDevice | null;
  startedAt: number;
  /** When the progress last moved to a new phase (the progress bar creeps from there). */
  since: number;
  endedPercent: number | null;
}

/**
 * One network setup run, whichever the flow: `start()` runs it once (double taps start one setup),
 * `cancel()` stops it before binding, `retry()` runs again after a failure or a cancel — only the binding when the
 * module already handed over its pairing code and just binding failed — and `subscribe()` delivers every new
 * snapshot. Subclasses give the first snapshot, what counts as a new phase, when cancelling is still possible, and
 * the exchange with the module.
 */
export abstract class SetupRun<S extends RunSnapshot> {
  protected state: S;
  protected stop = new AbortController();
  /** The pairing code "MAC:TOKEN" once the module handed it over in this run. */
  protected pairingCode: string | null = null;
  private readonly listeners = new Listeners<S>();
  private running: Promise<S> | null = null;

  protected readonly clock: FlowClock;
  protected constructor(clock: FlowClock) {
    this.clock = clock;
    this.state = this.initial();
  }

  /** The snapshot a run starts from. */
  protected abstract initial(): S;
  /** Whether `patch` moves the progress to a new phase (`since` restarts). */
  protected abstract isNewPhase(patch: Partial<S>): boolean;
  /** Whether the run may still be cancelled (before binding). */
  protected abstract cancellable(): boolean;
  /** The exchange with the module up to its pairing code; rejects on a failure or a cancel (FlowStopped). */
  protected abstract exchange(): Promise<string>;
  /** The final snapshot of a run the exchange ended with `err` (failed or cancelled). */
  protected abstract end(err: unknown): Promise<S> | S;
  /** The progress percent now (spec §9, one decimal), kept when a run ends without success. */
  protected abstract percent(): number;
  /** The failure of a refused binding (the server's message shown to the owner). */
  protected abstract bindFailure(message: string | null): S["failure"];
  /** The snapshot changes of the binding step, and of a bound device. */
  protected abstract bindingPatch(): Partial<S>;
  protected abstract boundPatch(device: BoundDevice): Partial<S>;

  /** The current snapshot. */
  snapshot(): S {
    return this.state;
  }

  /** Calls `listener` with every new snapshot; answers the function that stops it. */
  subscribe(listener: (s: S) => void): () => void {
    return this.listeners.add(listener);
  }

  /** Starts the run (once); resolves with the final snapshot, never rejects. */
  start(): Promise<S> {
    if (!this.running) this.running = this.run(false);
    return this.running;
  }

  /** Stops a running setup before binding; false when nothing was stopped (not running, or already binding). */
  cancel(): boolean {
    if (this.state.status !== "running" || !this.cancellable()) return false;
    this.stop.abort("cancel");
    return true;
  }

  /** Runs again after "failed" or "cancelled" (binding only when just binding failed); answers the running promise. */
  retry(): Promise<S> {
    if (this.state.status === "running" && this.running) return this.running;
    const bindOnly = this.state.failure?.reason === "bind" && this.pairingCode !== null;
    this.stop = new AbortController();
    this.running = this.run(bindOnly);
    return this.running;
  }

  /** Applies `patch` and tells the listeners. */
  protected update(patch: Partial<S>): void {
    const next = { ...this.state, ...patch };
    if (this.isNewPhase(patch)) next.since = this.clock.now();
    this.state = next;
    this.listeners.emit(next);
  }

  private async run(bindOnly: boolean): Promise<S> {
    if (!bindOnly) {
      this.pairingCode = null;
      this.state = this.initial();
      this.listeners.emit(this.state);
      try {
        this.pairingCode = await this.exchange();
      } catch (err) {
        return this.end(err);
      }
    }
    this.update({ status: "running", failure: null, endedPercent: null, ...this.bindingPatch() } as Partial<S>);
    try {
      const device = await this.bind(this.pairingCode as string);
      this.update({ status: "succeeded", ...this.boundPatch(device) } as Partial<S>);
    } catch (err) {
      this.update({
        status: "failed",
        failure: this.bindFailure(bindErrorMessage(err)),
        endedPercent: this.percent(),
      } as Partial<S>);
    }
    return this.state;
  }

  /** Binds the device with the pairing code (spec §7 device POST /). */
  protected abstract bind(pairingCode: string): Promise<BoundDevice>;
}
