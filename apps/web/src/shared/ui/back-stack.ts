import { goBack } from "../navigation/index.js";

/**
 * The back stack of spec §2: "Back closes the top dialog first, then lets the page handle back." Dialogs and popups
 * push a close handler while open; the top bar's back arrow (and a native shell's hardware back, through
 * `window.AquaPilotBack()`) pops the top one, and only with none open runs the page's own back.
 */
const handlers: Array<() => void> = [];

/** Registers a close handler for an open dialog; returns the function that removes it (call it on close). */
export function pushBackHandler(close: () => void): () => void {
  handlers.push(close);
  return () => {
    const i = handlers.lastIndexOf(close);
    if (i >= 0) handlers.splice(i, 1);
  };
}

/** How many dialogs are registered as open. */
export function openDialogCount(): number {
  return handlers.length;
}

/**
 * Handles one back press: closes the top dialog if any (returns "dialog"), else runs `pageBack` or goes back one
 * page (returns "page").
 */
export function handleBack(pageBack?: () => void): "dialog" | "page" {
  const top = handlers.pop();
  if (top) {
    top();
    return "dialog";
  }
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
