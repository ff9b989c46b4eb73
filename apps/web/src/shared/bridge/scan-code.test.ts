import { afterEach, describe, expect, it, vi } from "vitest";
import { hasNativeScanner, installSimulatedBridge, scanCode } from "./index.ts";

afterEach(() => {
  delete window.AquaPilotNative;
  vi.restoreAllMocks();
});

describe("native scanCode (camera through the bridge)", () => {
  it("without a bridge: no scanner, null, logged — never thrown", async () => {
    const log = vi.spyOn(console, "info").mockImplementation(() => {});
    expect(hasNativeScanner()).toBe(false);
    expect(await scanCode()).toBeNull();
    expect(log).toHaveBeenCalled();
  });

  it("answers the scanned text (sync or async), trimmed; cancel or failure gives null", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    installSimulatedBridge({ scanCode: () => "  CODE-1 " });
    expect(hasNativeScanner()).toBe(true);
    expect(await scanCode()).toBe("CODE-1");
    installSimulatedBridge({ scanCode: async () => "CODE-2" });
    expect(await scanCode()).toBe("CODE-2");
    installSimulatedBridge({ scanCode: () => null });
    expect(await scanCode()).toBeNull();
    installSimulatedBridge({
      scanCode: () => {
        throw new Error("camera denied");
      },
    });
    expect(await scanCode()).toBeNull();
  });

  it("a bridge without scanCode is not a scanner", () => {
    installSimulatedBridge({ getLanguage: () => "en" });
    expect(hasNativeScanner()).toBe(false);
  });
});
