/** Shared UI of the mobile app: page shell with top bar and back stack, dialogs, toasts, placeholders. */
export { handleBack, openDialogCount, pushBackHandler } from "./back-stack.js";
export { BrandMark } from "./brand-mark.js";
export { confirmDialog, toast } from "./dialogs.js";
export { NotBuiltPage } from "./not-built-page.js";
export { PageShell, type PageShellProps } from "./page-shell.js";
export { StateBlock } from "./state-block.js";
export { TextField, type TextFieldProps } from "./text-field.js";
