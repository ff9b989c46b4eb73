import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type ColumnKey,
  type DateFormat,
  type DateParts,
  type DateTimePickerType,
  dateTimeColumns,
  formatDateParts,
  formatTimeSelection,
  type PickerColumn,
  parseDateText,
  SWIPE_DURATION_MS,
  type TimeBounds,
  timeColumns,
  toParts,
} from "./date-time-rules.ts";
import { mountOverlay } from "./overlay.tsx";
import { WheelPopup } from "./wheel.tsx";

/**
 * The date/time picker bottom popup (spec §2): types datetime (and date), time (starts at 00:00) and timeWithSecond
 * (hour 00-23, minute and second 00-59; an hour column with only 00 left is removed and the result is then prefixed
 * 00:); hour and minute bounds filter the choices; swipe duration 300. Formats of §9.
 */

/** Props of {@link DateTimePickerPopup}. */
export interface DateTimePickerPopupProps extends TimeBounds {
  visible: boolean;
  type: DateTimePickerType;
  /** For datetime/date: yyyy-MM-dd HH:mm:ss, yyyy-MM-dd or yyyy-MM-dd HH:mm (default per type). */
  format?: DateFormat;
  /** Start value in the type's format; default now (datetime/date) or 00:00 (time types). */
  value?: string | null;
  /** Year range of datetime/date (default this year −10 … +10). */
  minYear?: number;
  maxYear?: number;
  title?: ReactNode;
  swipeDuration?: number;
  onConfirm: (value: string) => void;
  onCancel: () => void;
  /** `data-testid` root (default "date-time-picker"); columns `-col-year` … `-col-second`. */
  testId?: string;
}

/** The default format of a date type. */
export function defaultFormat(type: DateTimePickerType): DateFormat {
  return type === "date" ? "yyyy-MM-dd" : "yyyy-MM-dd HH:mm";
}

function startParts(props: DateTimePickerPopupProps): DateParts {
  if (props.type === "time" || props.type === "timeWithSecond") {
    const m = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?$/.exec(props.value ?? "");
    const base = { ...toParts(new Date()), hour: 0, minute: 0, second: 0 };
    if (!m) return base;
    // "mm:ss" when the hour column is removed is never given back; a value always reads hh:mm(:ss)
    return { ...base, hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0) };
  }
  return parseDateText(props.value) ?? toParts(new Date());
}

function indexIn(options: readonly string[], value: number): number {
  const i = options.findIndex((o) => Number(o) >= value);
  return i < 0 ? options.length - 1 : i;
}

/** The date/time picker popup (controlled by `visible`). */
export function DateTimePickerPopup(props: DateTimePickerPopupProps) {
  const { t } = useTranslation();
  const { visible, type, onCancel, onConfirm, testId = "date-time-picker" } = props;
  const format = props.format ?? defaultFormat(type);
  const [parts, setParts] = useState<DateParts>(() => startParts(props));
  const thisYear = new Date().getFullYear();
  const years = { min: props.minYear ?? thisYear - 10, max: props.maxYear ?? thisYear + 10 };
  const bounds: TimeBounds = {
    minHour: props.minHour,
    maxHour: props.maxHour,
    minMinute: props.minMinute,
    maxMinute: props.maxMinute,
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the popup opens or the value changes
  useEffect(() => {
    if (visible) setParts(startParts(props));
  }, [visible, props.value, type]);

  const columns: PickerColumn[] =
    type === "time" || type === "timeWithSecond"
      ? timeColumns(type, bounds)
      : dateTimeColumns(format, parts, years, bounds);

  const indexes = columns.map((c) => indexIn(c.options, parts[c.key]));
  const selected = (key: ColumnKey) => {
    const i = columns.findIndex((c) => c.key === key);
    return i < 0 ? null : columns[i].options[indexes[i]];
  };

  const confirm = () => {
    if (type === "time" || type === "timeWithSecond") {
      onConfirm(
        formatTimeSelection(
          type,
          columns.map((c, i) => c.options[indexes[i]]),
        ),
      );
      return;
    }
    const chosen = { ...parts };
    for (const key of ["year", "month", "day", "hour", "minute", "second"] as const) {
      const v = selected(key);
      if (v !== null) chosen[key] = Number(v);
    }
    onConfirm(formatDateParts(chosen, format));
  };

  const title =
    props.title ??
    (type === "date"
      ? t("picker.dateTitle")
      : type === "datetime"
        ? t("picker.dateTimeTitle")
        : t("picker.timeOnlyTitle"));

  return (
    <WheelPopup
      visible={visible}
      title={title}
      testId={testId}
      swipeDuration={props.swipeDuration ?? SWIPE_DURATION_MS}
      columns={columns.map((c) => ({ ...c, label: t(`picker.units.${c.key}`) }))}
      indexes={indexes}
      onIndexesChange={(next) => {
        const updated = { ...parts };
        columns.forEach((c, i) => {
          updated[c.key] = Number(c.options[next[i]]);
        });
        // a shorter month keeps the day inside it
        const maxDay = new Date(updated.year, updated.month, 0).getDate();
        if (updated.day > maxDay) updated.day = maxDay;
        setParts(updated);
      }}
      onCancel={onCancel}
      onConfirm={confirm}
    />
  );
}

/** Options of {@link openDateTimePicker}. */
export type OpenDateTimePickerOptions = Omit<DateTimePickerPopupProps, "visible" | "onConfirm" | "onCancel">;

/** Opens the date/time picker; resolves the formatted value on confirm, null on cancel, mask tap or back. */
export function openDateTimePicker(options: OpenDateTimePickerOptions): Promise<string | null> {
  return mountOverlay<string | null>((visible, done) => (
    <DateTimePickerPopup
      {...options}
      title={options.title ?? undefined}
      visible={visible}
      onConfirm={(v) => done(v)}
      onCancel={() => done(null)}
    />
  ));
}
