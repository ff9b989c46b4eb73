import type { ReactNode } from "react";
import { i18n } from "../../../shared/i18n/index.ts";
import { pushBackHandler, showDialog } from "../../../shared/ui/index.ts";

/**
 * A one-button dialog that takes part in the back stack (spec §2: back closes the top dialog first). Resolves when
 * it closes (button, mask, back, or any navigation). `testId` marks its content for browser tests.
 */
export function alertDialog(options: { title: ReactNode; content: ReactNode; confirmText?: string; testId?: string }) {
  return new Promise<void>((resolve) => {
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      removeBack();
      handler.close();
      resolve();
    };
    const handler = showDialog({
      title: options.title,
      content: <div data-testid={options.testId}>{options.content}</div>,
      closeOnMaskClick: true,
      onClose: done,
      actions: [{ key: "ok", text: options.confirmText ?? i18n.t("common.ok"), bold: true, onClick: done }],
    });
    // back closes it, and so does leaving its page
    const removeBack = pushBackHandler(done);
  });
}
