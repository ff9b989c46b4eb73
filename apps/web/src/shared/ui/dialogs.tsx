import { ActionSheet, Dialog, type DialogShowProps } from "antd-mobile";
import type { ReactNode } from "react";
import { i18n } from "../i18n/index.ts";
import { pushBackHandler } from "./back-stack.ts";
import { CENTER_DIALOG, imperativeFocusScope, POPUP_DIALOG, withDialogAnchor } from "./focus-scope.tsx";

/** A dialog that has not reported itself shown after this long is closed anyway, ms (its opening takes ~300 ms). */
const SHOW_FALLBACK_MS = 1_000;

/**
 * `Dialog.show` whose `close()` also works during the opening animation: antd-mobile loses a close that arrives
 * before the dialog has finished opening and leaves it on screen for good (seen when back was pressed a few
 * milliseconds after a dialog opened), so such a close waits for `afterShow` (or {@link SHOW_FALLBACK_MS}).
 *
 * The open dialog holds the keyboard focus (WCAG 2.4.3 Focus Order, 2.1.2 No Keyboard Trap; shared/ui/focus-trap.ts):
 * the focus moves to its first button, Tab cycles through its buttons, Escape runs back, and from the moment it is
 * asked to close (`close()`, a mask tap, an action closing it) the focus is back on the element that had it before.
 */
export function showDialog(props: DialogShowProps): { close: () => void } {
  let shown = false;
  let closing = false;
  const focus = imperativeFocusScope(CENTER_DIALOG);
  const handler = Dialog.show({
    ...props,
    ...withDialogAnchor(props, focus.anchor),
    onClose: () => {
      focus.release();
      props.onClose?.();
    },
    afterShow: () => {
      shown = true;
      props.afterShow?.();
      if (closing) handler.close();
    },
  });
  return {
    close: () => {
      focus.release();
      if (shown) {
        handler.close();
        return;
      }
      if (closing) return;
      closing = true;
      setTimeout(() => {
        if (!shown) handler.close();
      }, SHOW_FALLBACK_MS);
    },
  };
}

/** How long an action sheet takes to slide in, ms; a close asked for earlier waits until then. */
const SHEET_OPENING_MS = 400;

/** An action of antd-mobile's ActionSheet: a link without `href`, which neither Tab nor Enter reaches. */
const SHEET_ACTION = ".adm-action-sheet-button-item";

/**
 * Makes the actions of an action sheet keyboard-operable (WCAG 2.1.1 Keyboard, 4.1.2 Name, Role, Value): each enabled
 * one becomes a Tab stop with role "button", and Enter or Space on it taps it.
 */
function operableActions(sheet: HTMLElement): void {
  // antd-mobile wraps the cancel action in an element with role "option" (no listbox around it) named like it: the
  // action inside is the control, so the wrapper is plain.
  for (const wrapper of sheet.querySelectorAll<HTMLElement>(".adm-action-sheet-cancel")) {
    wrapper.removeAttribute("role");
    wrapper.removeAttribute("aria-label");
  }
  for (const action of sheet.querySelectorAll<HTMLElement>(SHEET_ACTION)) {
    if (action.classList.contains("adm-action-sheet-button-item-disabled")) continue;
    action.tabIndex = 0;
    action.setAttribute("role", "button");
  }
  sheet.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const action = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>(SHEET_ACTION) : null;
    if (!action || action.tabIndex < 0) return;
    event.preventDefault();
    action.click();
  });
}

/**
 * Action sheet props with the focus anchor put in `extra` (the sheet's heading) when there is one, else in the first
 * action's text (`onAction` then gets a copy of that action with the anchor in its text); only the changed prop, to
 * spread over the props.
 */
function withSheetAnchor(props: Parameters<typeof ActionSheet.show>[0], anchor: ReactNode) {
  const [first, ...others] = props.actions;
  if (props.extra || !first) {
    return {
      extra: (
        <>
          {anchor}
          {props.extra}
        </>
      ),
    };
  }
  const text = (
    <>
      {anchor}
      {first.text}
    </>
  );
  return { actions: [{ ...first, text }, ...others] };
}

/**
 * `ActionSheet.show` whose `close()` also works while the sheet slides in (the same antd-mobile loss as
 * {@link showDialog}; the action sheet reports no `afterShow`, so an early close waits {@link SHEET_OPENING_MS}).
 *
 * The open sheet holds the keyboard focus as {@link showDialog} does (WCAG 2.4.3, 2.1.2: focus on its first action, Tab
 * cycles, Escape runs back, the focus returns on close), named by its `extra`; its actions, plain links in antd-mobile,
 * are made Tab stops that Enter and Space tap (WCAG 2.1.1).
 */
export function showActionSheet(props: Parameters<typeof ActionSheet.show>[0]): { close: () => void } {
  const openedAt = Date.now();
  const focus = imperativeFocusScope(POPUP_DIALOG, operableActions);
  const handler = ActionSheet.show({
    ...props,
    ...withSheetAnchor(props, focus.anchor),
    onClose: () => {
      focus.release();
      props.onClose?.();
    },
  });
  let closing = false;
  return {
    close: () => {
      focus.release();
      const wait = openedAt + SHEET_OPENING_MS - Date.now();
      if (wait <= 0) {
        handler.close();
        return;
      }
      if (closing) return;
      closing = true;
      setTimeout(() => handler.close(), wait);
    },
  };
}

/** What {@link confirmDialog} and {@link showConfirm} ask. */
export interface ConfirmOptions {
  title?: ReactNode;
  content: ReactNode;
  confirmText?: string;
  /** The cancel button's text (default "Cancel"). */
  cancelText?: string;
  danger?: boolean;
}

/**
 * Shows a confirm dialog without a back-stack entry of its own, for a caller that holds one (shared/ui/lazy-overlays
 * openWithBack): `answer` gets true on confirm, false on cancel, a mask tap or `close()`, once.
 */
export function showConfirm(options: ConfirmOptions, answer: (confirmed: boolean) => void): { close: () => void } {
  let settled = false;
  const done = (value: boolean) => {
    if (settled) return;
    settled = true;
    handler.close();
    answer(value);
  };
  const handler = showDialog({
    title: options.title,
    content: options.content,
    closeOnMaskClick: true,
    onClose: () => done(false),
    actions: [
      [
        { key: "cancel", text: options.cancelText ?? i18n.t("common.cancel"), onClick: () => done(false) },
        {
          key: "confirm",
          text: options.confirmText ?? i18n.t("common.confirm"),
          bold: true,
          danger: options.danger,
          onClick: () => done(true),
        },
      ],
    ],
  });
  return { close: () => done(false) };
}

/**
 * A confirm dialog that takes part in the back stack (spec §2): back closes it like "cancel".
 * Resolves true on confirm, false on cancel, mask tap or back.
 */
export function confirmDialog(options: ConfirmOptions) {
  return new Promise<boolean>((resolve) => {
    const dialog = showConfirm(options, (confirmed) => {
      removeBack();
      resolve(confirmed);
    });
    const removeBack = pushBackHandler(() => dialog.close());
  });
}
