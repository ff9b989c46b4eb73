/**
 * The timers and HTTP calls of one setup attempt (docs/device-sim.md §13.1): everything the module started for the
 * attempt under way, so that a new configuration, DISCONNECT_WIFI, a failure or `stop()` ends all of it at once.
 */

/**
 * The running attempt's timers and abort signal. {@link endAttempt} cancels every timer set since the previous end,
 * aborts the signal handed to the attempt's HTTP calls and starts a new attempt number; a step that awaited one of
 * these timers simply never resumes.
 */
export class AttemptTimers {
  private attempt = 0;
  private controller = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();

  /** The number of the attempt under way: a step compares it with the one it began in to see whether it still runs. */
  get current(): number {
    return this.attempt;
  }

  /** Aborted when the attempt ends: hand it to the attempt's HTTP calls. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Runs `fn` after `ms` milliseconds unless the attempt ends first. @returns the timer, for {@link cancel}. */
  after(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  /** Cancels one timer set by {@link after}. */
  cancel(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  /** Resolves after `ms` milliseconds; never resolves when the attempt ends meanwhile (its timer is cancelled). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  /**
   * Whether `work` settles successfully within `ms` milliseconds (a module's own timeout on a network step). A
   * rejection is handed to `onRejected` and counts as false; never rejects itself. When the attempt ends first, its
   * timeout is cancelled and it resolves only once `work` settles.
   */
  within(ms: number, work: Promise<unknown>, onRejected: (err: Error) => void): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = this.after(ms, () => resolve(false));
      const settle = (ok: boolean) => {
        this.cancel(timer);
        resolve(ok);
      };
      work.then(
        () => settle(true),
        (err: Error) => {
          onRejected(err);
          settle(false);
        },
      );
    });
  }

  /** Ends the attempt under way: cancels its timers, aborts its signal and starts the next attempt number. */
  endAttempt(): void {
    this.attempt += 1;
    this.controller.abort();
    this.controller = new AbortController();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
