import { Button } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { navigateTo, PATHS } from "../../shared/navigation/index.ts";
import { openDateTimePicker } from "../../shared/ui/index.ts";
import { TestPageLayout } from "./test-page-layout.tsx";

/**
 * /Test2 (spec §2 Test pages): the date/time picker in each type and format — datetime (yyyy-MM-dd HH:mm), datetime
 * with seconds, date, time (starts at 00:00), time with hour/minute bounds, timeWithSecond, and timeWithSecond with
 * only hour 00 left (the hour column is removed, the result is prefixed 00:).
 * Buttons: test-open-datetime, -datetime-second, -date, -time, -time-bounded, -time-with-second,
 * -time-with-second-no-hour.
 */
export function Test2Screen() {
  const { t } = useTranslation();
  return (
    <TestPageLayout
      n={2}
      groups={[
        {
          title: t("testPages.pickers"),
          actions: [
            {
              id: "datetime",
              label: t("testPages.dateTime"),
              run: () => openDateTimePicker({ type: "datetime", value: "2025-06-15 08:30" }),
            },
            {
              id: "datetime-second",
              label: t("testPages.dateTimeSecond"),
              run: () =>
                openDateTimePicker({ type: "datetime", format: "yyyy-MM-dd HH:mm:ss", value: "2025-06-15 08:30:45" }),
            },
            {
              id: "date",
              label: t("testPages.date"),
              run: () => openDateTimePicker({ type: "date", value: "2024-02-29" }),
            },
            { id: "time", label: t("testPages.time"), run: () => openDateTimePicker({ type: "time" }) },
            {
              id: "time-bounded",
              label: t("testPages.timeBounded"),
              run: () => openDateTimePicker({ type: "time", minHour: 8, maxHour: 18, minMinute: 0, maxMinute: 15 }),
            },
            {
              id: "time-with-second",
              label: t("testPages.timeWithSecond"),
              run: () => openDateTimePicker({ type: "timeWithSecond" }),
            },
            {
              id: "time-with-second-no-hour",
              label: t("testPages.timeWithSecondNoHour"),
              run: () => openDateTimePicker({ type: "timeWithSecond", maxHour: 0 }),
            },
          ],
        },
      ]}
    >
      <div className="test-page__nav">
        <Button fill="none" color="primary" data-testid="test-next" onClick={() => navigateTo(PATHS.Test3)}>
          {t("testPages.next")} →
        </Button>
      </div>
    </TestPageLayout>
  );
}
