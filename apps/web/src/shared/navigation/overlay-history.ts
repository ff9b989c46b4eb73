/**
 * Open overlays (dialogs, popups, pickers, action sheets, the full-screen map) as entries of the browser history, so
 * that every kind of back — the phone's system back, the browser's back, the top bar's arrow and a native shell's
 * hardware back — closes the top overlay first and keeps the page, with its form state, where it is (spec §2 "Back
 * closes the top dialog first, then lets the page handle back": one back stack for overlays and pages).
 *
 * Model: the page's own history entry (made by the router) is followed by one entry per open overlay, pushed with
 * `history.pushState` on the same URL and marked with its depth. The router never sees these entries: a back press
 * that only lowers the depth on the same page is answered here (the event stops before the router's listener) by
 * closing the overlays above that depth. An overlay closed from inside (a button, a mask tap) takes its entry away
 * with `history.go(-n)`; navigations asked for meanwhile wait until that traversal has landed, so they never race
 * it. A page change closes every overlay as "leave" (a dialog never outlives its page, and a confirmation never
 * answers yes for a page that is gone); entries left behind by such a change are skipped when back reaches them.
 *
 * Browsers skip, on back, history entries a page added without a user gesture (Chromium's history intervention): an
 * overlay opened after a wait, or a question asked after a back press, may have no entry back can land on. So a back
 * press that leaves a page while it has an open overlay or a page guard (see {@link addPageGuard}) is undone here —
 * the event stops before the router, the history steps forward again to the page — and then closes the top overlay,
 * or else asks the page's guard.
 */

/** Why an overlay is being closed: a back press, or its page is going away. */
export type OverlayCloseReason = "back" | "leave";

interface Overlay {
  close: (reason: OverlayCloseReason) => void;
}

/** The history state key carrying the overlay depth of an entry. */
export const OVERLAY_STATE_KEY = "aquapilotOverlay";

/** A traversal we started that has not reported back within this long is taken as done, in ms. */
export const TRAVERSAL_FALLBACK_MS = 1_000;

const stack: Overlay[] = [];
/** Overlay entries above the page entry in the browser history, as far as we know. */
let historyDepth = 0;
/** A `history.go` of ours is under way. */
let traversing = false;
/** Where that traversal lands (see {@link entryIndex}), when the browser tells entry indexes. */
let traversalTarget: number | null = null;
let fallbackTimer: ReturnType<typeof setTimeout> | null = null;
let syncScheduled = false;
/** Work waiting for the history to match the open overlays (navigations). */
let waiting: Array<() => void> = [];
/** The router's key and the URL of the page the overlays belong to. */
let pageKey: string | null = null;
let pageUrl: string | null = null;
/** The position of that page's entry in the session history (see {@link historyPosition}), when known. */
let pagePosition: number | null = null;
/** Back handlers of the page that hold back presses leaving it (newest last). */
const guards: Array<() => void> = [];

const hasHistory = () => typeof window !== "undefined" && typeof window.history?.pushState === "function";

function stateRecord(state: unknown): Record<string, unknown> {
  return state && typeof state === "object" ? (state as Record<string, unknown>) : {};
}

function depthOf(state: unknown): number {
  const value = stateRecord(state)[OVERLAY_STATE_KEY];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : 0;
}

function idxOf(state: unknown): number | null {
  const idx = stateRecord(state).idx;
  return typeof idx === "number" && Number.isInteger(idx) ? idx : null;
}

/**
 * Where the current entry stands in the session history: the Navigation API's entry index where the browser has it
 * (it counts every entry, also one whose URL was typed), else the router's `history.state.idx`; null when unknown.
 */
function historyPosition(): number | null {
  return entryIndex() ?? idxOf(window.history.state);
}

/** The Navigation API's index of the current entry (every entry counts, overlay entries too); null without the API. */
function entryIndex(): number | null {
  const navigation = (window as unknown as { navigation?: { currentEntry?: { index?: number } | null } }).navigation;
  const index = navigation?.currentEntry?.index;
  return typeof index === "number" && index >= 0 ? index : null;
}

function keyOf(state: unknown): string {
  const key = stateRecord(state).key;
  return typeof key === "string" ? key : "default";
}

function settled(): boolean {
  return !traversing && historyDepth === stack.length;
}

function flush(): void {
  while (settled() && waiting.length > 0) {
    const next = waiting.shift();
    next?.();
  }
}

/** Brings the history's overlay entries in line with the open overlays; runs waiting work once they match. */
function sync(): void {
  syncScheduled = false;
  if (!hasHistory()) {
    historyDepth = stack.length;
    flush();
    return;
  }
  if (traversing) return;
  while (historyDepth < stack.length) {
    historyDepth += 1;
    window.history.pushState({ ...stateRecord(window.history.state), [OVERLAY_STATE_KEY]: historyDepth }, "");
  }
  if (historyDepth > stack.length) {
    traverse(stack.length - historyDepth);
    return;
  }
  flush();
}

/** Starts a `history.go(delta)` of ours; its popstate is swallowed and the history reconciled when it lands. */
function traverse(delta: number): void {
  traversing = true;
  const from = entryIndex();
  traversalTarget = from === null ? null : from + delta;
  if (fallbackTimer) clearTimeout(fallbackTimer);
  fallbackTimer = setTimeout(() => {
    // The traversal never reported (a browser that does not fire popstate here): take the history as it is.
    traversing = false;
    historyDepth = depthOf(window.history.state);
    sync();
  }, TRAVERSAL_FALLBACK_MS);
  window.history.go(delta);
}

/** Several overlays closing in one task leave with one traversal (two `history.back()` in a row go back once). */
function scheduleSync(): void {
  if (syncScheduled) return;
  syncScheduled = true;
  queueMicrotask(sync);
}

function closeAll(reason: OverlayCloseReason): void {
  while (stack.length > 0) stack.pop()?.close(reason);
}

function onPopState(event: PopStateEvent): void {
  const depth = depthOf(event.state);
  // Ours only when it lands where ours goes: a navigation from elsewhere (a typed URL, a link) may come first.
  if (traversing && (traversalTarget === null || entryIndex() === traversalTarget)) {
    // Our own traversal landed: it belongs to no one else.
    traversing = false;
    if (fallbackTimer) clearTimeout(fallbackTimer);
    fallbackTimer = null;
    historyDepth = depth;
    event.stopImmediatePropagation();
    sync();
    return;
  }
  // The same page: its key and URL (an entry the router did not make has no key, like the first one).
  if (pageKey === null || (keyOf(event.state) === pageKey && window.location.href === pageUrl)) {
    // Back (or forward) within the same page: only overlay entries changed.
    event.stopImmediatePropagation();
    historyDepth = depth;
    while (stack.length > depth) stack.pop()?.close("back");
    // Forward into an entry whose overlay is gone, or a dead entry: step back to the open overlays.
    sync();
    return;
  }
  // Back to an earlier page while this one holds back (an overlay whose entry was skipped, or a guard): undo it.
  const landed = historyPosition();
  if (pagePosition !== null && landed !== null && landed < pagePosition && (stack.length > 0 || guards.length > 0)) {
    event.stopImmediatePropagation();
    traverse(pagePosition - landed);
    if (!closeTopOverlay()) guards.at(-1)?.();
    return;
  }
  // Another page: the router handles it; every overlay of the page being left closes.
  closeAll("leave");
  historyDepth = depth;
  scheduleSync();
}

if (hasHistory()) {
  // Registered before the router's own listener (module load precedes router creation), in the capture phase.
  window.addEventListener("popstate", onPopState, { capture: true });
  historyDepth = depthOf(window.history.state);
  // A reload on an overlay entry: its overlay is gone, step back to the page.
  if (historyDepth > 0) scheduleSync();
}

/**
 * Registers an open overlay and gives it a history entry. `close` is called with "back" when a back press closes it
 * and with "leave" when its page goes away; it is not called when the overlay closes itself — then call the returned
 * function, which takes its history entry away (safe to call more than once, and after `close`).
 */
export function openOverlay(close: (reason: OverlayCloseReason) => void): () => void {
  const overlay: Overlay = { close };
  stack.push(overlay);
  scheduleSync();
  return () => {
    const i = stack.lastIndexOf(overlay);
    if (i < 0) return;
    stack.splice(i, 1);
    scheduleSync();
  };
}

/** How many overlays are open. */
export function openOverlayCount(): number {
  return stack.length;
}

/** Closes the top overlay as a back press would (its history entry goes too); false when none is open. */
export function closeTopOverlay(): boolean {
  const top = stack.pop();
  if (!top) return false;
  top.close("back");
  scheduleSync();
  return true;
}

/**
 * Runs `navigate` once the page has no open overlay and the history holds no overlay entry: open overlays close as
 * "leave" and their entries go first. Runs at once when nothing is open. Used by every navigation of the app.
 */
export function afterOverlays(navigate: () => void): void {
  closeAll("leave");
  waiting.push(navigate);
  if (settled()) flush();
  else scheduleSync();
}

/**
 * Tells the overlay history which page is shown (the router's location key, with the URL: entries the router did not
 * make all have the key "default"). A new page closes the overlays of the
 * one before (a redirect the app did not ask for through {@link afterOverlays}, e.g. a sign-out).
 */
export function setOverlayPage(key: string): void {
  const url = hasHistory() ? window.location.href : null;
  if (pageKey === key && pageUrl === url) return;
  const first = pageKey === null;
  pageKey = key;
  pageUrl = url;
  pagePosition = hasHistory() ? historyPosition() : null;
  if (first) return;
  closeAll("leave");
  historyDepth = hasHistory() ? depthOf(window.history.state) : 0;
  scheduleSync();
}

/**
 * Holds back presses that would leave the current page: while added, such a press stays on the page and runs
 * `onBack` instead (once there is no overlay left to close). Returns the function that removes the guard; the page's
 * component removes it when it goes (a guard is not dropped by a page change, since a page may stay mounted across a
 * navigation to its own URL).
 */
export function addPageGuard(onBack: () => void): () => void {
  const guard = () => onBack();
  guards.push(guard);
  return () => {
    const i = guards.lastIndexOf(guard);
    if (i >= 0) guards.splice(i, 1);
  };
}

/** For tests: forgets every overlay and waiting navigation. */
export function resetOverlayHistory(): void {
  stack.length = 0;
  waiting = [];
  traversing = false;
  if (fallbackTimer) clearTimeout(fallbackTimer);
  fallbackTimer = null;
  historyDepth = hasHistory() ? depthOf(window.history.state) : 0;
  pageKey = null;
  pageUrl = null;
  pagePosition = null;
  guards.length = 0;
}
