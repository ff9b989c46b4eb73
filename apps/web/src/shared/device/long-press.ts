import { LIMITS } from "@aquapilot/contract/wire";

/**
 * A press-and-hold gesture (spec §4 forced switch "press 2 s to go to next step", §9 long press 2 s): `start()`
 * on press, `cancel()` on release or leave; `onFire` runs once when held for `holdMs`. `progress(now)` (0–1) drives
 * the ring that fills while holding. Timers come from the platform (fake timers in tests).
 */
export class LongPress {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private startedAt: number | null = null;

  private readonly onFire: () => void;
  readonly holdMs: number;
  /**
   * @param onFire called once per completed hold
   * @param holdMs how long to hold, ms (default LIMITS.longPressMs = 2000)
   */
  constructor(onFire: () => void, holdMs: number = LIMITS.longPressMs) {
    this.onFire = onFire;
    this.holdMs = holdMs;
  }

  /** Starts a hold at `now` (ms); a hold already running keeps its start. */
  start(now: number = Date.now()): void {
    if (this.timer) return;
    this.startedAt = now;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.startedAt = null;
      this.onFire();
    }, this.holdMs);
  }

  /** Ends the hold without firing (release before `holdMs`, pointer left, cancelled). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.startedAt = null;
  }

  /** Whether a hold is running. */
  get holding(): boolean {
    return this.timer !== null;
  }

  /** Share of the hold done at `now` (0–1); 0 when not holding. */
  progress(now: number = Date.now()): number {
    if (this.startedAt === null) return 0;
    return Math.min(1, Math.max(0, (now - this.startedAt) / this.holdMs));
  }
}
