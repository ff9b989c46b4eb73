import { CloseOutline } from "antd-mobile-icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { mountOverlay, useBackClose } from "./overlay.tsx";
import "./pickers.css";
import { Popup } from "./popup.tsx";

/** The bottom alert popup (spec §2: title and optional clear link, default text "clear"). */

/** Props of {@link AlertPopup}. */
export interface AlertPopupProps {
  visible: boolean;
  title: ReactNode;
  children?: ReactNode;
  /** Show the clear link in the title row. */
  showClear?: boolean;
  /** Text of the clear link (default "clear"). */
  clearText?: string;
  onClear?: () => void;
  onClose: () => void;
  /** `data-testid` root (default "alert-popup"): `-title`, `-clear`, `-close`. */
  testId?: string;
}

/** The bottom alert popup (controlled by `visible`); back, the close icon and a mask tap close it. */
export function AlertPopup(props: AlertPopupProps) {
  const { t } = useTranslation();
  const { visible, title, children, showClear = false, clearText, onClear, onClose, testId = "alert-popup" } = props;
  useBackClose(visible, onClose);
  return (
    <Popup visible={visible} onMaskClick={onClose} bodyClassName="alert-popup" destroyOnClose>
      <div data-testid={testId}>
        <div className="alert-popup__bar">
          <div className="alert-popup__title" data-testid={`${testId}-title`}>
            {title}
          </div>
          {showClear ? (
            <button type="button" className="link" data-testid={`${testId}-clear`} onClick={onClear}>
              {clearText ?? t("picker.clear")}
            </button>
          ) : null}
          <button
            type="button"
            className="alert-popup__close"
            aria-label={t("picker.cancel")}
            data-testid={`${testId}-close`}
            onClick={onClose}
          >
            <CloseOutline />
          </button>
        </div>
        <div className="alert-popup__body">{children}</div>
      </div>
    </Popup>
  );
}

/** Options of {@link openAlertPopup}. */
export interface OpenAlertPopupOptions {
  title: ReactNode;
  content?: ReactNode;
  showClear?: boolean;
  clearText?: string;
}

/** Opens the bottom alert popup; resolves "clear" when the clear link is tapped, else "close". */
export function openAlertPopup(options: OpenAlertPopupOptions): Promise<"clear" | "close"> {
  return mountOverlay<"clear" | "close">((visible, done) => (
    <AlertPopup
      visible={visible}
      title={options.title}
      showClear={options.showClear}
      clearText={options.clearText}
      onClear={() => done("clear")}
      onClose={() => done("close")}
    >
      {options.content}
    </AlertPopup>
  ));
}
