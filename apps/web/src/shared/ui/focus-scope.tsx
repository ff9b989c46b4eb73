import { AutoCenter } from "antd-mobile";
import { type ReactElement, type ReactNode, type Ref, useEffect, useRef } from "react";
import { trapFocus } from "./focus-trap.ts";

/**
 * Focus trapping for antd-mobile's overlays (see shared/ui/focus-trap.ts), which give no handle on their dialog
 * element: a hidden anchor rendered inside the overlay's content finds it as its nearest ancestor matching a selector
 * (`.adm-popup-body` for a Popup or ActionSheet, `.adm-center-popup-wrap`, which carries role "dialog", for a Dialog).
 * The anchor takes no room (display: none) and is skipped by assistive technology.
 */

/** The dialog element of antd-mobile's Popup and ActionSheet, from inside their content. */
export const POPUP_DIALOG = ".adm-popup-body";
/** The dialog element of antd-mobile's Dialog (role "dialog"), from inside its content. */
export const CENTER_DIALOG = ".adm-center-popup-wrap";

/** The anchor's element: nothing shown, nothing read. */
const anchorElement = (ref: Ref<HTMLSpanElement>) => <span ref={ref} hidden />;

/** Finds the dialog element from the anchor; null when the anchor is not inside one. */
function dialogOf(anchor: HTMLElement | null, within: string): HTMLElement | null {
  return anchor?.parentElement?.closest<HTMLElement>(within) ?? null;
}

/** Props of {@link FocusScope}. */
export interface FocusScopeProps {
  /** The overlay is open (its caller's `visible`): the trap holds while true and is released when it turns false. */
  active: boolean;
  /** Selector of the dialog element, the anchor's nearest ancestor matching it ({@link POPUP_DIALOG}, …). */
  within: string;
  /** The dialog's accessible name when it has no title element (see `trapFocus`). */
  label?: string;
}

/**
 * Rendered inside a declarative overlay's content: while `active`, the overlay's dialog element holds the keyboard
 * focus and gives it back on close ({@link trapFocus}: WCAG 2.4.3 Focus Order, 2.1.2 No Keyboard Trap). Renders a
 * hidden span; without a matching ancestor it does nothing.
 */
export function FocusScope({ active, within, label }: FocusScopeProps) {
  const anchor = useRef<HTMLSpanElement>(null);
  // A passive effect: after a commit's DOM changes, where layout effects are cleaned up, React puts the focus back on
  // the element that had it before the commit (its selection restore), which would undo a focus given back there.
  useEffect(() => {
    if (!active) return;
    const dialog = dialogOf(anchor.current, within);
    return dialog ? trapFocus(dialog, { label }) : undefined;
  }, [active, within, label]);
  return anchorElement(anchor);
}

/**
 * The focus scope of an imperative overlay (antd-mobile's `Dialog.show`, `ActionSheet.show`), whose content stays
 * mounted through its leave animation: `anchor` goes into the content and traps the focus in the dialog element
 * matching `within` once mounted ({@link trapFocus}, WCAG 2.4.3, 2.1.2); `release()` — called when the overlay is
 * asked to close — gives the focus back at once (an unmount does too). `prepare` runs on the dialog element before
 * the focus moves in (e.g. to make its actions keyboard-operable). `release` may be called any number of times, also
 * before the anchor mounted (then it never traps).
 */
export function imperativeFocusScope(
  within: string,
  prepare?: (dialog: HTMLElement) => void,
): { anchor: ReactElement; release: () => void } {
  let released = false;
  let releaseTrap: (() => void) | null = null;
  const release = () => {
    released = true;
    releaseTrap?.();
    releaseTrap = null;
  };
  function ImperativeAnchor() {
    const anchor = useRef<HTMLSpanElement>(null);
    useEffect(() => {
      if (released) return;
      const dialog = dialogOf(anchor.current, within);
      if (!dialog) return;
      prepare?.(dialog);
      releaseTrap = trapFocus(dialog);
      return () => {
        releaseTrap?.();
        releaseTrap = null;
      };
    }, []);
    return anchorElement(anchor);
  }
  return { anchor: <ImperativeAnchor />, release };
}

/** The parts of antd-mobile's Dialog props {@link withDialogAnchor} reads and writes. */
interface DialogParts {
  title?: ReactNode;
  content?: ReactNode;
}

/**
 * The `content` (or `title`) of antd-mobile Dialog props with `anchor` put in front, leaving the dialog's look as it
 * was: a text content stays centred as antd-mobile centres a text (AutoCenter); with no content (antd-mobile styles
 * the content as empty then) it goes into the title, or into the content when there is no title either. Returns only
 * the changed prop, `{ content }` or `{ title }`, to spread over the props. Never throws.
 */
export function withDialogAnchor(props: DialogParts, anchor: ReactElement): DialogParts {
  const { title, content } = props;
  if (!content && title) {
    return {
      title: (
        <>
          {anchor}
          {title}
        </>
      ),
    };
  }
  return {
    content: (
      <>
        {anchor}
        {typeof content === "string" ? <AutoCenter>{content}</AutoCenter> : content}
      </>
    ),
  };
}
