/** Shared UI of the mobile app: page shell with top bar and back stack, dialogs, toasts, pickers, placeholders. */
export { AlertPopup, type AlertPopupProps, type OpenAlertPopupOptions, openAlertPopup } from "./alert-popup.tsx";
export { handleBack, openDialogCount, pushBackHandler } from "./back-stack.ts";
export { BrandMark } from "./brand-mark.tsx";
export {
  DateTimePickerPopup,
  type DateTimePickerPopupProps,
  type OpenDateTimePickerOptions,
  openDateTimePicker,
} from "./date-time-picker.tsx";
export {
  DATE_FORMATS,
  type DateFormat,
  type DateTimePickerType,
  formatDate,
  SWIPE_DURATION_MS,
} from "./date-time-rules.ts";
export { DeviceImage } from "./device-image.tsx";
export { confirmDialog, showActionSheet, showDialog } from "./dialogs.tsx";
export { ImagePreview, type ImagePreviewProps, openImagePreview } from "./image-preview.tsx";
export {
  LIST_PICKER_TOTAL_WIDTH,
  ListPicker,
  type ListPickerProps,
  type OpenListPickerOptions,
  openListPicker,
  type PickerOption,
} from "./list-picker.tsx";
export { NotBuiltPage } from "./not-built-page.tsx";
export { mountOverlay, useBackClose, useBackGuard } from "./overlay.tsx";
export { PageShell, type PageShellProps } from "./page-shell.tsx";
export { SegmentedChoice, type SegmentedOption } from "./segmented-choice.tsx";
export { useSingleFlight } from "./single-flight.ts";
export { StateBlock } from "./state-block.tsx";
export { TextField, type TextFieldProps } from "./text-field.tsx";
export {
  type OpenTimePickerOptions,
  openTimePicker,
  TimePickerPopup,
  type TimePickerPopupProps,
} from "./time-picker.tsx";
export { formatMinutesSeconds } from "./time-picker-rules.ts";
export { Toast, toast } from "./toast.ts";
