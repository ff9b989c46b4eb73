/**
 * Timers that share one platform timer. TanStack Query arms a timer for every query it builds (its garbage
 * collection after `gcTime`) and again after every answer, and one for each observer's `staleTime`: the Device screen
 * armed about a hundred while it started. Each platform `setTimeout` is a call into the browser (and, under DevTools'
 * tracing, which Lighthouse measures with, ~0.1-0.5 ms each with its stack). Here only the earliest pending timer holds
 * a platform timer; the others wait in a list, and a timer cancelled before it is due costs nothing.
 *
 * Shape: the `TimeoutProvider` of `@tanstack/query-core` (`timeoutManager.setTimeoutProvider`). Intervals are passed
 * to the platform unchanged (the app's queries use none at start-up).
 */

/** A pending timer: when it is due (`performance.now()` ms) and what it runs. */
interface Pending {
  due: number;
  callback: () => void;
}

/**
 * The longest delay a platform timer takes, ms (2^31 - 1, about 24.8 days): a longer one fires at once. A timer due
 * later waits in steps of this.
 */
const MAX_PLATFORM_DELAY = 2 ** 31 - 1;

/** The clock timers are measured on: monotonic where the platform has one, ms. */
function now(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

/**
 * A set of timers served by one platform timer at a time, armed for the earliest one due. Callbacks due at the same
 * time run in the order they were set, each on its own (one that throws is reported and the others still run).
 */
export class CoalescedTimers {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private armed: ReturnType<typeof setTimeout> | null = null;
  private armedFor = Number.POSITIVE_INFINITY;

  /**
   * Runs `callback` once after at least `delay` ms (negative or missing: 0), like the platform's `setTimeout`.
   * @returns the timer's id, for {@link clearTimeout}; never the id of a platform timer
   */
  setTimeout = (callback: () => void, delay?: number): number => {
    const id = this.nextId++;
    const due = now() + Math.max(0, delay ?? 0);
    this.pending.set(id, { due, callback });
    if (due < this.armedFor) this.arm(due);
    return id;
  };

  /** Cancels a timer set by {@link setTimeout}; an unknown id, or one that is not a number, does nothing. */
  clearTimeout = (id: unknown): void => {
    if (typeof id !== "number" || !this.pending.delete(id)) return;
    // The platform timer stays armed: when it fires with nothing due it re-arms for the earliest left (or none).
    if (this.pending.size === 0) this.disarm();
  };

  /** The platform's `setInterval`, unchanged. */
  setInterval = (callback: () => void, delay?: number): ReturnType<typeof setInterval> => setInterval(callback, delay);

  /** The platform's `clearInterval`, unchanged (an id of another kind does nothing). */
  clearInterval = (id: unknown): void => clearInterval(id as Parameters<typeof clearInterval>[0]);

  /** How many timers are waiting (tests, diagnostics). */
  get size(): number {
    return this.pending.size;
  }

  private arm(due: number): void {
    if (this.armed !== null) clearTimeout(this.armed);
    this.armedFor = due;
    const delay = Math.max(0, due - now());
    this.armed =
      delay > MAX_PLATFORM_DELAY
        ? setTimeout(() => this.arm(due), MAX_PLATFORM_DELAY)
        : setTimeout(() => this.fire(due), delay);
  }

  private disarm(): void {
    if (this.armed !== null) clearTimeout(this.armed);
    this.armed = null;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  /** The platform timer armed for `armedDue` fired: runs every timer due by then (or by now, if later). */
  private fire(armedDue: number): void {
    this.armed = null;
    this.armedFor = Number.POSITIVE_INFINITY;
    // A platform timer may fire a little before its time by the page's clock (or a test's fake clock may not move
    // `performance`): the timer armed for `armedDue` firing means that time has come.
    const by = Math.max(armedDue, now());
    const due: Pending[] = [];
    for (const [id, timer] of this.pending) {
      if (timer.due <= by) {
        due.push(timer);
        this.pending.delete(id);
      }
    }
    due.sort((a, b) => a.due - b.due);
    let earliest = Number.POSITIVE_INFINITY;
    for (const timer of this.pending.values()) earliest = Math.min(earliest, timer.due);
    if (earliest !== Number.POSITIVE_INFINITY) this.arm(earliest);
    for (const timer of due) {
      try {
        timer.callback();
      } catch (err) {
        reportLater(err);
      }
    }
  }
}

/** Reports an error thrown by a timer's callback the way an uncaught error in a platform timer is, without stopping. */
function reportLater(err: unknown): void {
  setTimeout(() => {
    throw err;
  }, 0);
}
