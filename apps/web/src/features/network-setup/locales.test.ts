import { describe, expect, it } from "vitest";
import { LOCALES } from "../../app/all-locales.ts";
import { resolveStep } from "./params.ts";

/**
 * The spec's English texts as a screen shows them on their own: the spec's words, the first letter raised (sentence
 * case, docs/glossary.md).
 */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The spec's English texts of network setup (spec §2, §3, §4, §5, §8), word for word. */
describe("network setup texts (spec §2–§8)", () => {
  const en = LOCALES.en.networkSetup;

  it("carries the spec's English texts", () => {
    expect(en.progress.steps).toEqual({
      starting: sentence("starting network setup"),
      searching: sentence("searching for device"),
      wifiConnected: sentence("device connected to Wi-Fi successfully"),
      connectingServer: sentence("device is connecting to the server"),
      adding: sentence("adding device"),
      added: "Device added successfully",
    });
    expect(Object.values(en.progress.bleFailures)).toEqual(
      [
        "initialization failed",
        "connection timed out",
        "module connection to the access point timed out",
        "password issue with the module's connection to the router",
        "DNS resolution failed",
        "activation step one failed",
        "activation step two failed",
        "no server response on the persistent connection",
      ].map(sentence),
    );
    expect(Object.values(en.progress.smartFailures)).toEqual(
      [
        "initialization failed",
        "connection timed out",
        "failed to find device",
        "device failed to connect to the server",
      ].map(sentence),
    );
    // The module's states follow "Device:" inside a line, so they keep the spec's lowercase.
    expect(Object.values(en.progress.moduleStates)).toEqual([
      "awaiting",
      "config received",
      "connecting to WiFi",
      "WiFi connected",
      "server connected",
    ]);
    expect(en.permissions.problems).toEqual({
      locationDenied: "Location permission request failed",
      bluetoothDenied: "Bluetooth permission application failed",
      locationOff: "Location not enabled",
      bluetoothOff: "Bluetooth not turned on",
      bluetoothUnavailable: "Bluetooth not enabled or Bluetooth permissions not enabled",
    });
    expect(en.permissions.locationOffDetail).toBe("Location services are off");
    expect(en.permissions.permissionFailed).toBe("Permission request failed");
    expect(en.permissions.grantedBle).toBe(sentence("location and Bluetooth permissions granted"));
    expect(en.permissions.switchedOnBle).toBe(sentence("location and Bluetooth switched on"));
    expect(en.wifi.errors.required).toBe("Please enter the Wi-Fi name and password");
    expect(en.wifi.notConnected).toBe("Currently not connected to WiFi");
    expect(en.wifi.connect).toBe("Connect to Wi-Fi");
    expect(en.wifi.switch).toBe("Switch the network");
    expect(en.wifi.current).toBe("Current WiFi");
    expect(en.wifi.only24).toBe("2.4GHz only");
    expect(en.progress.home).toBe("Go back to homepage");
    expect(en.mode.newVersion).toBe("New version");
    expect(en.mode.oldVersion).toBe("Old version");
  });

  it("translates them in the other languages", () => {
    for (const lang of ["zh-Hans", "es", "ru", "fr"] as const) {
      const other = LOCALES[lang].networkSetup;
      expect(other.progress.steps.added, lang).not.toBe(en.progress.steps.added);
      expect(other.progress.bleFailures["4"], lang).not.toBe(en.progress.bleFailures["4"]);
      expect(other.wifi.errors.required, lang).not.toBe(en.wifi.errors.required);
      expect(other.wifi.notConnected, lang).not.toBe(en.wifi.notConnected);
    }
  });
});

describe("/DeviceNetwork steps (spec §2)", () => {
  it("opens the mode choice by default, the code step for a scanned code, and needs a mode for the Wi-Fi steps", () => {
    expect(resolveStep({})).toBe("mode");
    expect(resolveStep({ code: "0211AABBCCDD:s" })).toBe("code");
    expect(resolveStep({ step: "guide", mode: "ble" })).toBe("guide");
    expect(resolveStep({ step: "wifi", mode: "ap" })).toBe("wifi");
    expect(resolveStep({ step: "progress" })).toBe("mode");
    expect(resolveStep({ step: "nonsense" as never })).toBe("mode");
    expect(resolveStep({ step: "code" })).toBe("code");
  });
});
