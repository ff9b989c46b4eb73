import type { TDeviceWithData } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../../../shared/api/query-keys.ts";
import { useDeviceCommand, useNow } from "../../../shared/device/hooks.ts";
import { formatDuration } from "../../../shared/format/duration.ts";
import { formatDate } from "../../../shared/ui/date-time-rules.ts";
import { confirmDialog } from "../../../shared/ui/index.ts";
import { deviceClockNow, deviceClockOffset } from "../device-clock.ts";

/**
 * The device's own clock (spec §3 currentTime; shown only here and in the drift warning, any other time is the
 * phone's), read only: the device time now in the phone's time zone, the phone's time beside it, how far apart they
 * are (§9 duration format) and "Sync time" (spec §4: asks "Confirm synchronization time?", sets the device clock to
 * the phone's). Test ids: `device-setting-currentTime`, `device-setting-device-time`, `device-setting-phone-time`,
 * `device-setting-clock-offset`, `device-setting-sync-status` (data-status), `device-setting-sync-time`.
 */
export function DeviceClockRow({ device }: { device: TDeviceWithData }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const now = useNow(1000);
  const [syncedAt, setSyncedAt] = useState<number | null>(null);
  const [sentAt, setSentAt] = useState<number | null>(null);
  const { state, run } = useDeviceCommand(device.id, device.online);

  // After an acknowledged sync the clock reads from the phone's time at sending until the device reports again.
  useEffect(() => {
    if (state.status !== "done" || state.kind !== "timeSync" || sentAt === null) return;
    setSyncedAt(sentAt);
    void client.invalidateQueries({ queryKey: queryKeys.deviceAll });
  }, [state, sentAt, client]);

  const deviceNow = deviceClockNow(device, now, syncedAt);
  const offset = deviceClockOffset(device, now, syncedAt);
  const sync = async () => {
    if (state.status === "pending") return;
    if (!(await confirmDialog({ content: t("deviceControl.confirmTimeSync") }))) return;
    setSentAt(Date.now());
    await run("timeSync");
  };

  const lang = i18n.language;
  const offsetText =
    offset === null
      ? null
      : Math.abs(offset) < 2000
        ? t("deviceSetting.deviceTime.inStep")
        : t(offset > 0 ? "deviceSetting.deviceTime.ahead" : "deviceSetting.deviceTime.behind", {
            duration: formatDuration(Math.abs(offset), lang),
          });
  const syncText = (() => {
    if (state.status === "idle" || state.kind !== "timeSync") return null;
    if (state.status === "pending") return t("deviceSetting.deviceTime.syncing");
    if (state.status === "done") return t("deviceSetting.deviceTime.synced");
    const f = state.failure;
    const message =
      f.reason === "offline"
        ? t("deviceSetting.deviceTime.offline")
        : f.reason === "refused"
          ? (f.error ?? t("deviceSetting.failed"))
          : f.message;
    return t("deviceSetting.deviceTime.syncFailed", { message });
  })();

  return (
    <div className="ds-row ds-clock" data-testid="device-setting-currentTime" data-invalid="false">
      <div className="ds-row__main">
        <div className="ds-row__label">{t("deviceSetting.fields.currentTime")}</div>
        {deviceNow === null ? (
          <div className="ds-row__hint">{t("deviceSetting.deviceTime.unknown")}</div>
        ) : (
          <>
            <div className="ds-clock__time" data-testid="device-setting-device-time">
              {formatDate(new Date(deviceNow), "yyyy-MM-dd HH:mm:ss")}
            </div>
            <div className="ds-row__hint" data-testid="device-setting-phone-time">
              {t("deviceSetting.deviceTime.phone")} {formatDate(new Date(now), "yyyy-MM-dd HH:mm:ss")}
            </div>
            {offsetText ? (
              <div className="ds-row__hint" data-testid="device-setting-clock-offset">
                {offsetText}
              </div>
            ) : null}
          </>
        )}
        {syncText ? (
          <div
            className={`ds-clock__status ds-clock__status--${state.status}`}
            data-testid="device-setting-sync-status"
            data-status={state.status}
            role="status"
          >
            {syncText}
          </div>
        ) : null}
        <Button
          size="small"
          color="primary"
          fill="outline"
          shape="rounded"
          className="ds-clock__sync"
          loading={state.status === "pending"}
          disabled={state.status === "pending"}
          onClick={() => void sync()}
          data-testid="device-setting-sync-time"
        >
          {t("deviceSetting.deviceTime.sync")}
        </Button>
      </div>
    </div>
  );
}
