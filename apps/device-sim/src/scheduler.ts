/**
 * One timer for a whole fleet (a simulated fleet of 10,000 must be cheap): instead of two or three
 * `setInterval`s per device, every periodic job of every device is an entry in one binary heap ordered by due time,
 * and one `setInterval` of `resolutionMs` runs whatever is due. Cancelling is O(1) (the entry is marked and skipped
 * when it reaches the top). docs/device-sim.md §14.
 */

/** A scheduled job; `cancel()` stops it (idempotent, also from inside the job). */
export interface ScheduledTask {
  cancel(): void;
}

/** What a {@link SimulatedDevice} needs of a timer source: periodic and one-shot jobs. */
export interface Scheduler {
  /**
   * Runs `fn` every `periodMs` (ms, > 0). The first run is after `firstInMs` (default: a uniformly random phase in
   * [0, periodMs), so many devices started together spread their work over the period). With `jitterMs` each run is
   * moved by a uniform offset in [−jitterMs, +jitterMs] around its slot on the period grid (the grid itself does not
   * drift, so the long-run rate is exactly one per period).
   * @throws RangeError when periodMs is not a positive finite number or jitterMs is negative or ≥ periodMs / 2.
   */
  every(periodMs: number, fn: () => void, opts?: { firstInMs?: number; jitterMs?: number }): ScheduledTask;
  /** Runs `fn` once after `delayMs` (ms, ≥ 0; at the next tick at the earliest). */
  after(delayMs: number, fn: () => void): ScheduledTask;
}

/** Options of {@link SharedScheduler}. */
export interface SharedSchedulerOptions {
  /** Real ms between the scheduler's ticks: the granularity of every job (default 50). */
  resolutionMs?: number;
  /** Monotonic clock in ms (default `performance.now`; tests with fake timers pass `Date.now`). */
  now?: () => number;
  /** Uniform random numbers in [0, 1) for phases and jitter (default Math.random). */
  random?: () => number;
}

interface Entry {
  due: number;
  /** Slot on the period grid (without jitter); periodic entries only. */
  slot: number;
  period: number;
  jitter: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * The shared scheduler: one `setInterval` (unref'd, so it never keeps a process alive by itself) that starts with the
 * first job and stops with the last one or {@link stop}. A job that throws is reported to `onError` (default:
 * console.error) and keeps its schedule. Jobs due in the same tick run in due-time order.
 */
export class SharedScheduler implements Scheduler {
  private readonly heap: Entry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly resolutionMs: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private live = 0;
  /** Called with the error of a job that threw. */
  onError: (err: unknown) => void = (err) => console.error("scheduler: a job failed", err);

  /** @param options tick resolution, clock and random source (all optional). */
  constructor(options: SharedSchedulerOptions = {}) {
    this.resolutionMs = options.resolutionMs ?? 50;
    if (!(this.resolutionMs > 0)) throw new RangeError("resolutionMs must be > 0");
    this.now = options.now ?? (() => performance.now());
    this.random = options.random ?? Math.random;
  }

  /** Jobs scheduled and not cancelled (periodic ones count until cancelled). */
  get size(): number {
    return this.live;
  }

  /** True while the scheduler's one interval timer is running. */
  get running(): boolean {
    return this.timer !== null;
  }

  every(periodMs: number, fn: () => void, opts: { firstInMs?: number; jitterMs?: number } = {}): ScheduledTask {
    if (!(periodMs > 0 && Number.isFinite(periodMs))) throw new RangeError("periodMs must be a positive number");
    const jitter = opts.jitterMs ?? 0;
    if (!(jitter >= 0 && jitter < periodMs / 2)) throw new RangeError("jitterMs must be within [0, periodMs / 2)");
    const slot = this.now() + (opts.firstInMs ?? this.random() * periodMs);
    return this.push({ due: this.jittered(slot, jitter), slot, period: periodMs, jitter, fn, cancelled: false });
  }

  after(delayMs: number, fn: () => void): ScheduledTask {
    const due = this.now() + Math.max(0, delayMs);
    return this.push({ due, slot: due, period: 0, jitter: 0, fn, cancelled: false });
  }

  /**
   * Runs every job due by now (the interval calls this; tests may too). A periodic job is put back for its next slot;
   * when the process was stalled for several periods it runs once, not once per missed period (as setInterval).
   */
  runDue(): void {
    const now = this.now();
    while (this.heap.length > 0 && this.heap[0].due <= now) {
      const entry = this.pop();
      if (entry.cancelled) continue;
      if (entry.period > 0) {
        const missed = Math.max(1, Math.ceil((now - entry.slot) / entry.period));
        entry.slot += missed * entry.period;
        entry.due = this.jittered(entry.slot, entry.jitter);
        // Never due again in this same pass (a jitter could pull it back behind `now`).
        if (entry.due <= now) entry.due = now + this.resolutionMs / 2;
        this.insert(entry);
      } else {
        this.live -= 1;
      }
      try {
        entry.fn();
      } catch (err) {
        this.onError(err);
      }
    }
    if (this.live === 0) this.halt();
  }

  /** Cancels every job and stops the timer. The scheduler may be used again afterwards. */
  stop(): void {
    for (const entry of this.heap) entry.cancelled = true;
    this.heap.length = 0;
    this.live = 0;
    this.halt();
  }

  private jittered(slot: number, jitter: number): number {
    return jitter > 0 ? slot + (this.random() * 2 - 1) * jitter : slot;
  }

  private push(entry: Entry): ScheduledTask {
    this.insert(entry);
    this.live += 1;
    if (!this.timer) {
      this.timer = setInterval(() => this.runDue(), this.resolutionMs);
      this.timer.unref();
    }
    return {
      cancel: () => {
        if (entry.cancelled) return;
        entry.cancelled = true;
        this.live -= 1;
        if (this.live === 0) this.stop();
      },
    };
  }

  private halt(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private insert(entry: Entry): void {
    const h = this.heap;
    h.push(entry);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent].due <= entry.due) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = entry;
  }

  private pop(): Entry {
    const h = this.heap;
    const top = h[0];
    const last = h.pop() as Entry;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && h[r].due < h[l].due ? r : l;
        if (h[c].due >= last.due) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

/**
 * mqtt.js's keep-alive timer (`timerVariant`, an object with `set(fn, ms)` and `clear(id)`) on a {@link Scheduler}:
 * each client's keep-alive becomes a heap entry instead of a Node timer of its own. mqtt.js re-arms it after every
 * packet it sends, which here is a cancel (O(1)) and an insert (O(log n)).
 */
export function mqttTimerOf(scheduler: Scheduler): {
  set: (fn: () => void, ms: number) => number;
  clear: (id: number) => void;
} {
  const tasks = new Map<number, ScheduledTask>();
  let next = 1;
  return {
    set(fn, ms) {
      const id = next++;
      tasks.set(id, scheduler.every(ms, fn, { firstInMs: ms }));
      return id;
    },
    clear(id) {
      tasks.get(id)?.cancel();
      tasks.delete(id);
    },
  };
}
