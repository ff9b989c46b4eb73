import { vi } from "vitest";
import { SHELL_PERMISSIONS, type ShellPermissionStatus } from "../definitions.ts";

export { SHELL_PERMISSIONS } from "../definitions.ts";

/** Every alias "prompt" except camera, granted. */
const status = () =>
  Object.fromEntries(SHELL_PERMISSIONS.map((a) => [a, a === "camera" ? "granted" : "prompt"])) as ShellPermissionStatus;

/** Manual mock of our AquaShell plugin. */
export const AquaShell = {
  checkPermissions: vi.fn(async () => status()),
  requestPermissions: vi.fn(async () => status()),
  clearCache: vi.fn(async () => {}),
};
