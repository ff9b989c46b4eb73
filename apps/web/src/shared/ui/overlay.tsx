import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { goBack } from "../navigation/index.ts";
import { addPageGuard } from "../navigation/overlay-history.ts";
import { pushBackHandler } from "./back-stack.ts";

/**
 * Helpers for imperative dialogs and popups (spec §2 "Back closes the top dialog first, then lets the page handle
 * back"): {@link useBackClose} registers an open popup in the back stack, {@link mountOverlay} renders one into its own
 * root and resolves when it closes.
 */

/**
 * While `visible`, a back press (system, browser, top bar arrow or native hardware back) runs `close` before the page's
 * back. The back entry is taken in the commit that shows the overlay (a layout effect): a passive effect runs only after
 * the next paint on Preact (which the production build runs the app on), and a back pressed in that frame — or right
 * after a tap — left the page with the overlay still open. Escape runs the same back while a dialog or sheet of
 * shared/ui/popup.tsx or dialogs.tsx holds the keyboard focus (shared/ui/focus-trap.ts, WCAG 2.1.2).
 */
export function useBackClose(visible: boolean, close: () => void): void {
  const closeRef = useRef(close);
  closeRef.current = close;
  useLayoutEffect(() => {
    if (!visible) return;
    let active = true;
    const remove = pushBackHandler(() => {
      active = false;
      closeRef.current();
    });
    return () => {
      if (active) remove();
    };
  }, [visible]);
}

/**
 * While `active`, a back press that would leave the page (system, browser, top bar or hardware back) stays on it and
 * runs `onBack` instead (e.g. "stop the setup?"). `onBack` resolves true to let the owner go — the guard is dropped and
 * the page goes back — or false to stay. A back press while `onBack` is still asking closes its dialog first (the
 * top overlay), as any back does. See `addPageGuard` (shared/navigation/overlay-history.ts).
 */
export function useBackGuard(active: boolean, onBack: () => Promise<boolean>): void {
  const onBackRef = useRef(onBack);
  onBackRef.current = onBack;
  // In the commit that activates it, as useBackClose's entry: a back press in the next frame is held too.
  useLayoutEffect(() => {
    if (!active) return;
    let asking = false;
    const remove = addPageGuard(() => {
      if (asking) return;
      asking = true;
      void onBackRef.current().then((leave) => {
        asking = false;
        if (!leave) return;
        remove();
        goBack();
      });
    });
    return remove;
  }, [active]);
}

/** How long a closing popup keeps its element for the leave animation, in ms. */
export const OVERLAY_LEAVE_MS = 320;

/**
 * Renders `render(visible, done)` into a fresh root under `document.body` and resolves with the value passed to
 * `done`. After `done` the element stays for {@link OVERLAY_LEAVE_MS} with `visible` false (leave animation), then
 * unmounts. Only the first `done` counts.
 */
export function mountOverlay<T>(render: (visible: boolean, done: (value: T) => void) => ReactNode): Promise<T> {
  return new Promise<T>((resolve) => {
    const host = document.createElement("div");
    host.className = "overlay-host";
    document.body.appendChild(host);
    const root = createRoot(host);

    function Holder() {
      const [visible, setVisible] = useState(false);
      const settled = useRef(false);
      useEffect(() => setVisible(true), []);
      const done = (value: T) => {
        if (settled.current) return;
        settled.current = true;
        setVisible(false);
        resolve(value);
        setTimeout(() => {
          root.unmount();
          host.remove();
        }, OVERLAY_LEAVE_MS);
      };
      return <>{render(visible, done)}</>;
    }

    root.render(<Holder />);
  });
}
