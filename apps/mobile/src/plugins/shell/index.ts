import { registerPlugin } from "@capacitor/core";
import type { AquaShellPlugin } from "./definitions.ts";
import { AquaShellWeb } from "./web.ts";

export type { AquaShellPlugin, ShellPermission } from "./definitions.ts";
export { SHELL_PERMISSIONS } from "./definitions.ts";

/** The AquaShell plugin (see {@link AquaShellPlugin}): native on Android/iOS, {@link AquaShellWeb} in a browser. */
export const AquaShell = registerPlugin<AquaShellPlugin>("AquaShell", { web: () => new AquaShellWeb() });
