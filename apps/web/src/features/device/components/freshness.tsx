import { useTranslation } from "react-i18next";
import { minutesAgo } from "../logic/live-values.ts";

/** "N min ago" / "just now" for one value's report time; nothing when unknown. */
export function ReportedAgo({ time, now, testId }: { time: string | null; now: number; testId?: string }) {
  const { t } = useTranslation();
  const minutes = minutesAgo(time, now);
  if (minutes === null) return null;
  return (
    <span className="device-fresh" data-testid={testId} data-reported={time ?? ""}>
      {minutes === 0 ? t("device.reportedNow") : t("device.reportedAgo", { count: minutes })}
    </span>
  );
}
