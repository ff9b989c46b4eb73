import { SALT_REMINDER_DAYS } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { RightOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { deviceKeys } from "../../../shared/device/api/keys.ts";
import { toast, useSingleFlight } from "../../../shared/ui/index.ts";
import { pickFromListLazily, preloadLazyOverlays } from "../../../shared/ui/lazy-overlays.ts";
import { setSaltReminder } from "../api/salt-reminder.ts";
import { reminderChoices } from "../logic/salt-gauge.ts";

/**
 * The low-salt reminder setting of a device: "remind me when salt runs out within
 * N days", shown as a row with the current value; a tap opens the list picker (3–30 days), the choice is saved with
 * set-salt-reminder (one save at a time) and the salt status is replaced by the answer, so the gauge's "low" follows
 * at once. The household shares it: the low-salt message goes to every member, once per refill. A refusal shows the
 * server's text. `days` is the current setting (the salt status's reminderDays).
 */
export function SaltReminderSetting({ deviceId, days }: { deviceId: string; days: number | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const save = useSingleFlight();
  const current = days ?? SALT_REMINDER_DAYS.default;

  const choose = () =>
    save.run(async () => {
      // The picker's code loads with the first tap (it stays off Device's first screen).
      const picked = await pickFromListLazily({
        title: t("saltGauge.reminderPicker"),
        options: reminderChoices(current).map((n) => ({
          value: String(n),
          label: t("saltGauge.reminderDays", { count: n }),
        })),
        value: [String(current)],
        searchable: false,
        testId: "salt-reminder-picker",
      });
      const choice = picked?.[0] ? Number(picked[0].value) : null;
      if (choice === null || choice === current) return;
      try {
        const status = await setSaltReminder(deviceId, choice);
        queryClient.setQueryData(deviceKeys.salt(deviceId), status);
        toast(t("saltGauge.reminderSaved"));
      } catch (err) {
        toast(errorMessage(err, t("saltGauge.reminderFailed")));
      }
    });

  return (
    <button
      type="button"
      className="salt-gauge__reminder"
      onClick={() => void choose()}
      onPointerDown={preloadLazyOverlays}
      disabled={save.running}
      data-testid="device-salt-reminder"
      data-days={current}
    >
      <span className="salt-gauge__reminder-text">
        <span className="salt-gauge__reminder-title">{t("saltGauge.reminder")}</span>
        <span className="salt-gauge__reminder-hint">{t("saltGauge.reminderHint")}</span>
      </span>
      <span className="salt-gauge__reminder-value" data-testid="device-salt-reminder-value">
        {t("saltGauge.reminderDays", { count: current })}
      </span>
      <RightOutline className="salt-gauge__reminder-arrow" />
    </button>
  );
}
