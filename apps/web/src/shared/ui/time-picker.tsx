import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { i18n } from "../i18n/index.ts";
import { mountOverlay } from "./overlay.tsx";
import {
  formatMinutesSeconds,
  parseMinutesSeconds,
  TIME_PICKER_MINUTES,
  TIME_PICKER_SECONDS,
} from "./time-picker-rules.ts";
import { WheelPopup } from "./wheel.tsx";

/**
 * The minutes-and-seconds time picker popup (spec §2: columns minutes 00-99 and seconds 00-59, default title "select
 * minutes and seconds", buttons cancel and confirm; §5: 60 or more minutes fold into hour 01; result hh:mm:ss).
 */

/** Props of {@link TimePickerPopup}. */
export interface TimePickerPopupProps {
  visible: boolean;
  /** Default "select minutes and seconds". */
  title?: ReactNode;
  /** Start value "hh:mm:ss" or "mm:ss"; default 00:00. */
  value?: string | null;
  /** Called with "hh:mm:ss" (e.g. "01:05:30" for 65 min 30 s). */
  onConfirm: (value: string) => void;
  onCancel: () => void;
  swipeDuration?: number;
  /** `data-testid` root (default "time-picker"); columns `-col-minutes`, `-col-seconds`. */
  testId?: string;
}

/** The time picker popup (controlled by `visible`). */
export function TimePickerPopup(props: TimePickerPopupProps) {
  const { t } = useTranslation();
  const { visible, value, onConfirm, onCancel, testId = "time-picker" } = props;
  const [indexes, setIndexes] = useState([0, 0]);
  useEffect(() => {
    if (!visible) return;
    const start = parseMinutesSeconds(value) ?? { minutes: 0, seconds: 0 };
    setIndexes([start.minutes, start.seconds]);
  }, [visible, value]);
  return (
    <WheelPopup
      visible={visible}
      title={props.title ?? t("picker.timeTitle")}
      testId={testId}
      swipeDuration={props.swipeDuration}
      columns={[
        { key: "minutes", options: TIME_PICKER_MINUTES, label: t("picker.units.minute") },
        { key: "seconds", options: TIME_PICKER_SECONDS, label: t("picker.units.second") },
      ]}
      indexes={indexes}
      onIndexesChange={setIndexes}
      onCancel={onCancel}
      onConfirm={() => onConfirm(formatMinutesSeconds(indexes[0], indexes[1]))}
    />
  );
}

/** Options of {@link openTimePicker}. */
export interface OpenTimePickerOptions {
  title?: string;
  value?: string | null;
}

/** Opens the time picker; resolves "hh:mm:ss" on confirm, null on cancel, mask tap or back. */
export function openTimePicker(options: OpenTimePickerOptions = {}): Promise<string | null> {
  return mountOverlay<string | null>((visible, done) => (
    <TimePickerPopup
      visible={visible}
      title={options.title ?? i18n.t("picker.timeTitle")}
      value={options.value}
      onConfirm={(v) => done(v)}
      onCancel={() => done(null)}
    />
  ));
}
