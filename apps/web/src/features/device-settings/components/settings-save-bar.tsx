import { Button, SpinLoading } from "antd-mobile";
import { CheckCircleFill, CloseCircleFill } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import type { SaveStatus } from "../use-settings-form.ts";

/**
 * DeviceSetting's sticky save bar (spec §2 /DeviceSetting: at the bottom, safe-area aware, where the owner is): the
 * outcome of the last save, announced politely (sending with a spinner, applied by the device or nothing to send,
 * refused with the server's or device's message, wrong values with their count), else how many changes are unsaved;
 * and Save, busy while sending and disabled while sending or with nothing changed (`dirtyCount` 0). Test ids:
 * `device-setting-bar`, `device-setting-status` (data-status), `device-setting-save`.
 */
export function SettingsSaveBar({
  status,
  dirtyCount,
  onSave,
}: {
  status: SaveStatus;
  dirtyCount: number;
  onSave: () => void;
}) {
  const { t } = useTranslation();
  const pending = status.state === "pending";
  const statusText = (() => {
    switch (status.state) {
      case "pending":
        return t("deviceSetting.pending");
      case "done":
        return status.nothing ? t("deviceSetting.savedNothing") : t("deviceSetting.applied");
      case "failed":
        return t("deviceSetting.failedWith", { message: status.message });
      case "invalid":
        return `${t("deviceSetting.wrongConfig")} · ${t("deviceSetting.fixFields", { count: status.count })}`;
      default:
        return dirtyCount > 0 ? t("deviceSetting.unsaved", { count: dirtyCount }) : "";
    }
  })();
  const tone = status.state === "idle" ? "dirty" : status.state === "invalid" ? "failed" : status.state;

  return (
    <div className="ds-bar" data-testid="device-setting-bar">
      <div
        className={`ds-status ds-status--${tone}`}
        data-testid="device-setting-status"
        data-status={status.state}
        role="status"
        aria-live="polite"
      >
        {pending ? <SpinLoading style={{ "--size": "0.427rem" }} /> : null}
        {status.state === "done" ? <CheckCircleFill /> : null}
        {status.state === "failed" || status.state === "invalid" ? <CloseCircleFill /> : null}
        <span className="ds-status__text">{statusText}</span>
      </div>
      <Button
        color="primary"
        shape="rounded"
        className="ds-bar__save"
        loading={pending}
        disabled={pending || dirtyCount === 0}
        onClick={onSave}
        data-testid="device-setting-save"
      >
        {t("deviceSetting.save")}
      </Button>
    </div>
  );
}
