/**
 * What went wrong with Bluetooth before the setup could start (spec §8 Bluetooth errors), read from what
 * `@capacitor-community/bluetooth-le` throws — Web Bluetooth in a browser, the shell's BLE natively:
 *
 * - "unsupported": no Web Bluetooth in this browser (`initialize()`: "Web Bluetooth API not available"; also an
 *   insecure http page) → say so and point to the app;
 * - "unavailable": no radio, or it is off or blocked (`getAvailability()` false → "No Bluetooth radio available.",
 *   `requestDevice()` → "NotFoundError: Bluetooth adapter not available.") → "Bluetooth not enabled or Bluetooth
 *   permissions not enabled";
 * - "permission": the user or the system refused (SecurityError / NotAllowedError, native "permission denied")
 *   → "Bluetooth permission application failed";
 * - "cancelled": the chooser was closed without a choice ("NotFoundError: User cancelled the requestDevice()
 *   chooser.") → a "no device chosen" state;
 * - "failed": anything else.
 */
export type BluetoothErrorKind = "unsupported" | "unavailable" | "permission" | "cancelled" | "failed";

function describe(err: unknown): { name: string; message: string; code: string } {
  if (err && typeof err === "object") {
    const e = err as { name?: unknown; message?: unknown; code?: unknown };
    return {
      name: typeof e.name === "string" ? e.name : "",
      message: typeof e.message === "string" ? e.message : String(err),
      code: typeof e.code === "string" ? e.code : "",
    };
  }
  return { name: "", message: String(err ?? ""), code: "" };
}

/** Classifies an error of BleClient.initialize / requestDevice / connect (see {@link BluetoothErrorKind}). */
export function classifyBluetoothError(err: unknown): BluetoothErrorKind {
  const { name, message, code } = describe(err);
  const text = `${name} ${message}`.toLowerCase();
  if (text.includes("web bluetooth api not available") || text.includes("bluetooth is not supported")) {
    return "unsupported";
  }
  if (text.includes("user cancelled") || text.includes("user canceled")) return "cancelled";
  if (
    name === "SecurityError" ||
    name === "NotAllowedError" ||
    text.includes("permission") ||
    text.includes("not allowed")
  ) {
    return "permission";
  }
  if (
    text.includes("adapter not available") ||
    text.includes("no bluetooth radio") ||
    text.includes("bluetooth not enabled") ||
    text.includes("bluetooth is off") ||
    text.includes("bluetooth le not available") ||
    text.includes("globally disabled")
  ) {
    return "unavailable";
  }
  if (code === "UNAVAILABLE" || code === "UNIMPLEMENTED") return "unsupported";
  return "failed";
}
