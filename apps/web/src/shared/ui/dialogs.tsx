import { ActionSheet, Dialog, type DialogShowProps } from "antd-mobile";
import type { ReactNode } from "react";
import { i18n } from "../i18n/index.ts";
import { pushBackHandler } from "./back-stack.ts";

/** A dialog that has not reported itself shown after this long is closed anyway, ms (its opening takes ~300 ms). */
const SHOW_FALLBACK_MS = 1_000;

/**
 * `Dialog.show` whose `close()` also works during the opening animation: antd-mobile loses a close that arrives
 * before the dialog has finished opening and leaves it on screen for good (seen when back was pressed a few
 * milliseconds after a dialog opened), so such a close waits for `afterShow` (or {@link SHOW_FALLBACK_MS}).
 */
export function showDialog(props: DialogShowProps): { close: () => void } {
  let shown = false;
  let closing = false;
  const handler = Dialog.show({
    ...props,
    afterShow: () => {
      shown = true;
      props.afterShow?.();
      if (closing) handler.close();
    },
  });
  return {
    close: () => {
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

/**
 * `ActionSheet.show` whose `close()` also works while the sheet slides in (the same antd-mobile loss as
 * {@link showDialog}; the action sheet reports no `afterShow`, so an early close waits {@link SHEET_OPENING_MS}).
 */
export function showActionSheet(props: Parameters<typeof ActionSheet.show>[0]): { close: () => void } {
  const openedAt = Date.now();
  const handler = ActionSheet.show(props);
  let closing = false;
  return {
    close: () => {
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
