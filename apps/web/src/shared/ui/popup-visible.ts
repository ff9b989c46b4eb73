import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/** A popup that has not reported itself shown after this long may close anyway, in ms (its opening takes ~300 ms). */
export const POPUP_SHOW_FALLBACK_MS = 1_000;

/**
 * The `visible` and `afterShow` props for an antd-mobile `Popup` or `Dialog` whose caller controls it with `visible`:
 * a close asked for while the popup is still opening is held until it reports itself shown (`afterShow`, or
 * {@link POPUP_SHOW_FALLBACK_MS}), then done. A popup mounted visible has no opening animation: its close is done at
 * once.
 *
 * Why: antd-mobile 5.43 (Popup and CenterPopup, over react-spring 9) keeps a popup "active" for good when it is closed
 * before its opening animation has drawn a frame — react-spring stops the opening with the opening's own `onRest`,
 * which marks the popup shown again. Its layer then stays in the page, off-screen but read by screen readers and
 * holding the page's scroll lock, until it is opened and closed again. A back press a few milliseconds after a tap
 * does exactly that on a busy phone (the imperative `Dialog.show` of shared/ui/dialogs.tsx has the same guard).
 * `afterShow` (optional) is called as the popup's own would be.
 */
export function usePopupVisible(visible: boolean, afterShow?: () => void): { visible: boolean; afterShow: () => void } {
  const [opening, setOpening] = useState(false);
  const fallback = useRef<ReturnType<typeof setTimeout> | null>(null);
  const afterShowRef = useRef(afterShow);
  afterShowRef.current = afterShow;
  const stopFallback = useCallback(() => {
    if (fallback.current) clearTimeout(fallback.current);
    fallback.current = null;
  }, []);
  // A popup mounted visible shows without an opening animation (and reports nothing): only a later opening is held.
  const mounted = useRef(false);
  // In the commit that shows the popup: a close in the very next task is already held.
  useLayoutEffect(() => {
    const atMount = !mounted.current;
    mounted.current = true;
    if (!visible || atMount) return;
    setOpening(true);
    stopFallback();
    fallback.current = setTimeout(() => setOpening(false), POPUP_SHOW_FALLBACK_MS);
  }, [visible, stopFallback]);
  useEffect(() => stopFallback, [stopFallback]);
  const shown = useCallback(() => {
    stopFallback();
    setOpening(false);
    afterShowRef.current?.();
  }, [stopFallback]);
  return { visible: visible || opening, afterShow: shown };
}
