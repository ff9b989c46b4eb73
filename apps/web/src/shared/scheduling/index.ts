/**
 * Resolves in a new task of the page's event loop, so the browser can paint and handle input between two pieces of
 * start-up work (issue 12: no main-thread task much over 50 ms, Lighthouse's total blocking time). Uses
 * `scheduler.yield()` where the browser has it (Chromium 129+: the continuation runs before other queued tasks), else
 * a zero-delay timeout. Never rejects.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
