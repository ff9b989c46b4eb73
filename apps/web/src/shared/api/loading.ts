/**
 * The counted loading indicator of spec §5: it shows when the first counted request starts and closes only when
 * every counted request has ended. The indicator itself (antd-mobile Toast) is plugged in by the app shell so that
 * this module stays free of UI code.
 */
export interface LoadingIndicator {
  show(): void;
  hide(): void;
}

let indicator: LoadingIndicator = { show() {}, hide() {} };
let pending = 0;

/** Installs the indicator (main.tsx: Toast.show({icon: "loading"}) / Toast.clear()). */
export function setLoadingIndicator(next: LoadingIndicator): void {
  indicator = next;
}

/** Counts one request in; shows the indicator on 0 → 1. */
export function beginLoading(): void {
  pending += 1;
  if (pending === 1) indicator.show();
}

/** Counts one request out; hides the indicator on 1 → 0. Extra calls never go below zero. */
export function endLoading(): void {
  if (pending === 0) return;
  pending -= 1;
  if (pending === 0) indicator.hide();
}

/** How many counted requests are still running. */
export function pendingLoads(): number {
  return pending;
}
