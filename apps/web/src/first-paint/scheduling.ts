/**
 * Resolves in a new task of the page's event loop, so the browser can paint and handle input between two pieces of
 * start-up work (no main-thread task much over 50 ms: Lighthouse counts the rest as total blocking time). Uses
 * `scheduler.yield()` where the browser has it (Chromium 129+: the continuation runs before other queued tasks), else
 * a zero-delay timeout. Never rejects.
 */
export function nextTask(): Promise<void> {
  return schedulerYield() ?? new Promise((resolve) => setTimeout(resolve, 0));
}

/** `scheduler.yield()`'s promise where the browser has it (Chromium 129+), else null. */
function schedulerYield(): Promise<void> | null {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return typeof scheduler?.yield === "function" ? scheduler.yield() : null;
}

/**
 * Where the browser has `scheduler.yield()` (Chromium 129+), resolves in a new task of the page, posted by the
 * scheduler rather than a timer; elsewhere (unit tests, other engines) at once, in this task. For work that should
 * start from a short task of its own — a request sent after a long render is then not tied to its long task — and that
 * must not wait on a timer where there is no scheduler (tests with fake timers). Never rejects.
 */
export function yieldIfScheduler(): Promise<void> {
  return schedulerYield() ?? Promise.resolve();
}

/**
 * Resolves once the browser has painted the DOM as it is now: after the next animation frame, in the task that
 * follows it. Falls back to a zero-delay timeout where there are no animation frames. Never rejects.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== "function") {
      setTimeout(resolve, 0);
      return;
    }
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

/** The longest the first screen's calls hold back the rest of the app (see {@link holdUntilFirstScreen}), in ms. */
export const FIRST_SCREEN_HOLD_MS = 3_000;

let firstScreen: Promise<void> = Promise.resolve();

/**
 * Holds what is not the first screen until the first screen's own calls have settled and their answers have been
 * rendered and painted, or at most `maxMs` (the real-time client, the message centre and the update check
 * loaded beside Home's calls pushed Home's device list — its largest paint — back by over a second on a slow phone).
 * Start-up calls it before the first render with the first screen's calls and that screen's showing (a screen drawn
 * beneath a snapshot or copy is in only once shown); {@link afterFirstScreen} waits for it.
 * @param settled settles (either way) when the first screen's calls have
 * @param maxMs the most it holds, from now, in ms
 */
export function holdUntilFirstScreen(settled: Promise<unknown>, maxMs = FIRST_SCREEN_HOLD_MS): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const painted = settled
    .then(
      () => undefined,
      () => undefined,
    )
    // A task for the query cache to tell its observers, then the frame that paints what they rendered.
    .then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))
    .then(afterNextPaint);
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxMs);
  });
  firstScreen = Promise.race([painted, limit]).then(() => clearTimeout(timer));
}

/**
 * Resolves once the first screen is in (see {@link holdUntilFirstScreen}), in a task of this caller's own: the
 * real-time client, the background watchers, the pull gesture and the service worker all wait for it, and resumed in
 * one task together they were one long task right after the first screen (it delayed the Device screen's time to
 * interactive). When nothing holds it, it resolves in the next task. Work that is not the first screen's — lazy
 * chunks, connections, background calls — starts after it. Never rejects.
 */
export function afterFirstScreen(): Promise<void> {
  return firstScreen.then(nextTask);
}
