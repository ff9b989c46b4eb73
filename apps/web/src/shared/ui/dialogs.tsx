import { Dialog, Toast } from "antd-mobile";
import type { ReactNode } from "react";
import { i18n } from "../i18n/index.js";
import { pushBackHandler } from "./back-stack.js";

/**
 * A confirm dialog that takes part in the back stack (spec §2): back closes it like "cancel".
 * Resolves true on confirm, false on cancel, mask tap or back.
 */
export function confirmDialog(options: {
  title?: ReactNode;
  content: ReactNode;
  confirmText?: string;
  /** The cancel button's text (default "Cancel"). */
  cancelText?: string;
  danger?: boolean;
}) {
  return new Promise<boolean>((resolve) => {
    let settled = false;
    const done = (value: boolean) => {
      if (settled) return;
      settled = true;
      removeBack();
      handler.close();
      resolve(value);
    };
    const handler = Dialog.show({
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
    const removeBack = pushBackHandler(() => done(false));
  });
}

/** Shows a short text toast (spec §8 "Failed list and permission loads show the error as toast"). */
export function toast(text: string): void {
  if (text) Toast.show({ content: text, position: "center" });
}
