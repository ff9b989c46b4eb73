/** Shared UI of the mobile app: page shell with top bar and back stack, dialogs, toasts, pickers, placeholders. */
export { openAlertPopup } from "./alert-popup.tsx";
export { pushBackHandler } from "./back-stack.ts";
export { BrandMark } from "./brand-mark.tsx";
export { openDateTimePicker } from "./date-time-picker.tsx";
export { formatDate } from "./date-time-rules.ts";
export { confirmDialog, showDialog } from "./dialogs.tsx";
export { openImagePreview } from "./image-preview.tsx";
export { openListPicker, type PickerOption } from "./list-picker.tsx";
export { useBackClose, useBackGuard } from "./overlay.tsx";
export { PageShell } from "./page-shell.tsx";
export { useSingleFlight } from "./single-flight.ts";
export { StateBlock } from "./state-block.tsx";
export { TextField } from "./text-field.tsx";
export { openTimePicker } from "./time-picker.tsx";
export { toast } from "./toast.ts";
