/** Shared UI of the mobile app: page shell with top bar and back stack, dialogs, toasts, pickers, placeholders. */
export { AlertPopup, type AlertPopupProps, type OpenAlertPopupOptions, openAlertPopup } from "./alert-popup.js";
export { handleBack, openDialogCount, pushBackHandler } from "./back-stack.js";
export { BrandMark } from "./brand-mark.js";
export {
  DateTimePickerPopup,
  type DateTimePickerPopupProps,
  type OpenDateTimePickerOptions,
  openDateTimePicker,
} from "./date-time-picker.js";
export {
  DATE_FORMATS,
  type DateFormat,
  type DateTimePickerType,
  formatDate,
  SWIPE_DURATION_MS,
} from "./date-time-rules.js";
export { DeviceImage } from "./device-image.js";
export { confirmDialog, showActionSheet, showDialog } from "./dialogs.js";
export { ImagePreview, type ImagePreviewProps, openImagePreview } from "./image-preview.js";
export {
  LIST_PICKER_TOTAL_WIDTH,
  ListPicker,
  type ListPickerProps,
  type OpenListPickerOptions,
  openListPicker,
  type PickerOption,
} from "./list-picker.js";
export { NotBuiltPage } from "./not-built-page.js";
export { mountOverlay, useBackClose, useBackGuard } from "./overlay.js";
export { PageShell, type PageShellProps } from "./page-shell.js";
export { useSingleFlight } from "./single-flight.js";
export { StateBlock } from "./state-block.js";
export { TextField, type TextFieldProps } from "./text-field.js";
export {
  type OpenTimePickerOptions,
  openTimePicker,
  TimePickerPopup,
  type TimePickerPopupProps,
} from "./time-picker.js";
export { formatMinutesSeconds } from "./time-picker-rules.js";
export { Toast, toast } from "./toast.js";
