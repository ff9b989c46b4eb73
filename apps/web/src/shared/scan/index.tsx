import { createRoot } from "react-dom/client";
import { hasNativeScanner, scanCode } from "../bridge/index.ts";
import { pushBackHandler } from "../ui/back-stack.ts";
import type { ScanTexts } from "./scanner-overlay.tsx";

export { classifyScannedCode, parsePairingCode } from "./classify.ts";
export type { ScanTexts } from "./scanner-overlay.tsx";

/**
 * Scans a QR code: with a native shell that offers `scanCode`, its camera; otherwise a full-screen camera overlay in
 * the page that decodes with @zxing/browser (loaded only now) and can also read a photo of the code. Resolves with the
 * code's text, or null when the user cancels (close button, back) — never throws; a camera that cannot start is shown
 * in the overlay. `texts` are the caller's localised labels (shared code owns no texts).
 */
export async function scanQrCode(texts: ScanTexts): Promise<string | null> {
  if (hasNativeScanner()) return scanCode();
  // The overlay (and its icons and mask) comes with the first scan: it is not part of the Home screen's first paint.
  const { ScannerOverlay } = await import("./scanner-overlay.tsx");
  return new Promise<string | null>((resolve) => {
    const host = document.createElement("div");
    host.className = "scan-host";
    document.body.appendChild(host);
    const root = createRoot(host);
    let settled = false;
    const finish = (text: string | null) => {
      if (settled) return;
      settled = true;
      removeBack();
      // Unmount after the current event so the overlay's own cleanup (camera stop) runs outside its handler.
      setTimeout(() => {
        root.unmount();
        host.remove();
      }, 0);
      resolve(text?.trim() ? text.trim() : null);
    };
    const removeBack = pushBackHandler(() => finish(null));
    root.render(<ScannerOverlay texts={texts} onResult={finish} onCancel={() => finish(null)} />);
  });
}
