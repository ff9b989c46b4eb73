/**
 * What both network-setup flows (issue 9; spec §4) share: an injected clock, cancellable waits, time limits, the
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
  constructor(readonly reason: unknown) {
    super("flow stopped");
    this.name = "FlowStopped";
  }
}

/** Thrown by {@link withTimeout} when an operation took longer than its limit. */
export class OperationTimeout extends Error {
  constructor(readonly what: string) {
    super(`${what} timed out`);
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

/** A percent as text with exactly one decimal, e.g. 42 → "42.0" (spec §9). */
export function formatPercent(value: number): string {
  return roundPercent(value).toFixed(1);
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
