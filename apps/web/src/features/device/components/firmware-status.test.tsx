import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen } from "../../../shared/testing/render.tsx";
import { FirmwareStatus, otaReasonKey } from "./firmware-status.tsx";

describe("FirmwareStatus (the Device screen's firmware versions, progress and outcome)", () => {
  it("shows both versions and the running update's progress, no outcome while it runs", async () => {
    await renderScreen(
      <FirmwareStatus
        currentVersion="1.0.0"
        latestVersion="1.2.0"
        progress={40}
        outcome={{ ok: false, reason: "hash" }}
      />,
    );
    expect(screen.getByTestId("device-firmware-versions").textContent).toBe("Firmware 1.0.0 · latest 1.2.0");
    expect(screen.getByTestId("device-ota-percent").textContent).toMatch(/^40(\.0)?\s*%$/);
    expect(screen.queryByTestId("device-ota-outcome")).toBeNull();
  });

  it("says why an update failed and which version the device keeps, in the user's language", async () => {
    await renderScreen(
      <FirmwareStatus
        currentVersion="1.0.0"
        latestVersion="1.2.0"
        progress={null}
        outcome={{ ok: false, reason: "signature" }}
      />,
    );
    const outcome = screen.getByTestId("device-ota-outcome");
    expect(outcome.dataset.outcome).toBe("failed");
    expect(outcome.textContent).toBe(
      "The firmware update failed: the image is not signed by the manufacturer. The device keeps version 1.0.0.",
    );
    expect(screen.queryByTestId("device-ota")).toBeNull();
  });

  it("reads a failure in French and a done update in Chinese", async () => {
    const fr = await renderScreen(
      <FirmwareStatus
        currentVersion="1.0.0"
        latestVersion="1.2.0"
        progress={null}
        outcome={{ ok: false, reason: "hash" }}
      />,
      { language: "fr" },
    );
    expect(screen.getByTestId("device-ota-outcome").textContent).toBe(
      "La mise à jour du micrologiciel a échoué : l'image téléchargée était corrompue. L'appareil garde la version 1.0.0.",
    );
    fr.unmount();
    await renderScreen(
      <FirmwareStatus
        currentVersion="1.2.0"
        latestVersion="1.2.0"
        progress={null}
        outcome={{ ok: true, reason: null }}
      />,
      { language: "zh-Hans" },
    );
    expect(screen.getByTestId("device-ota-outcome").dataset.outcome).toBe("done");
    expect(screen.getByTestId("device-ota-outcome").textContent).toBe("固件已更新至 1.2.0。");
  });

  it("names each device reason with its own text and any other with the general one; nothing before the versions", async () => {
    expect(["download", "hash", "signature", "boot", "busy", null].map(otaReasonKey)).toEqual([
      "deviceControl.otaReason.download",
      "deviceControl.otaReason.hash",
      "deviceControl.otaReason.signature",
      "deviceControl.otaReason.boot",
      "deviceControl.otaReason.other",
      "deviceControl.otaReason.other",
    ]);
    const view = await renderScreen(
      <FirmwareStatus currentVersion={null} latestVersion={null} progress={null} outcome={null} />,
    );
    expect(view.container.textContent).toBe("");
  });
});
