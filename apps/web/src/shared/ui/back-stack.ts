import { goBack } from "../navigation/index.ts";
import {
  closeTopOverlay,
  type OverlayCloseReason,
  openOverlay,
  openOverlayCount,
} from "../navigation/overlay-history.ts";

export type { OverlayCloseReason } from "../navigation/overlay-history.ts";

/**
 * The back stack of spec §2: "Back closes the top dialog first, then lets the page handle back." Dialogs and popups
 * register a close handler while open; each open one is an entry of the browser history (see
 * shared/navigation/overlay-history.ts), so the phone's system back and the browser's back close it like the top
 * bar's arrow and a native shell's hardware back (through `window.AquaPilotBack()`) do. Only with none open does back
 * run the page's own back.
 */

/**
 * Registers a close handler for an open dialog and gives it a history entry; returns the function that removes it
 * (call it when the dialog closes by itself). The handler gets "back" for a back press and "leave" when the page goes
 * away; either way the dialog must close (a "leave" must never count as a confirmation).
 */
export function pushBackHandler(close: (reason: OverlayCloseReason) => void): () => void {
  return openOverlay(close);
}

/** How many dialogs are registered as open. */
export function openDialogCount(): number {
  return openOverlayCount();
}

/**
 * Handles one back press: closes the top dialog if any (returns "dialog"), else runs `pageBack` or goes back one
 * page (returns "page").
 */
export function handleBack(pageBack?: () => void): "dialog" | "page" {
  if (closeTopOverlay()) return "dialog";
  if (pageBack) pageBack();
  else goBack();
  return "page";
}

declare global {
  interface Window {
    /** Called by native shells on a hardware back press; true when the web app handled it. */
    AquaPilotBack?: () => boolean;
  }
}

if (typeof window !== "undefined") {
  window.AquaPilotBack = () => {
    handleBack();
    return true;
  };
}

/**
 * Opens an overlay whose code loads on the tap (off the first screen) as if it opened at once: its back-stack entry is
 * taken before the code loads, so a back pressed meanwhile (or the page going away) cancels the opening just as it
 * would close the overlay. Once loaded, `show` opens the overlay and returns its `close`; it must call `closed` when
 * the overlay closes by itself (safe to call more than once). `gone` runs once, when the overlay is no longer open for
 * whatever reason — closed by itself, by back or by its page going away, its opening cancelled, its code not loaded —
 * so a caller's double-tap guard is released then: a tap right after a back opens it again, even while the last one is
 * still sliding out or its code is still loading on a slow phone. Resolves true when the overlay was shown, false when
 * the code could not be loaded (logged) or the opening was cancelled (then at once, not when the code arrives).
 */
export async function openWithBack<M>(
  load: () => Promise<M>,
  show: (module: M, closed: () => void) => { close: () => void },
  gone: () => void = () => {},
): Promise<boolean> {
  let overlay: { close: () => void } | null = null;
  let isGone = false;
  const markGone = () => {
    if (isGone) return;
    isGone = true;
    gone();
  };
  let cancel = () => {};
  const cancelled = new Promise<null>((resolve) => {
    cancel = () => resolve(null);
  });
  const removeBack = pushBackHandler(() => {
    markGone();
    if (overlay) overlay.close();
    else cancel();
  });
  let loaded: { module: M } | null;
  try {
    loaded = await Promise.race([load().then((module) => ({ module })), cancelled]);
  } catch (err) {
    removeBack();
    markGone();
    console.warn("[overlay] not loaded", err);
    return false;
  }
  if (!loaded) return false;
  overlay = show(loaded.module, () => {
    removeBack();
    markGone();
  });
  return true;
}
