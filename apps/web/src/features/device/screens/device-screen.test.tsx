import type { TDeviceInfo } from "@aquapilot/contract/wire";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { createElement } from "react";
import { describe, expect, it, vi } from "vitest";
import { deviceChange, deviceInfo } from "../../../shared/testing/fixtures.ts";
import { clickInDialog, fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { DeviceScreen } from "./device-screen.tsx";

/** How often the statistics section has drawn (the wrapper keeps the real section). */
const statsRenders = vi.hoisted(() => ({ count: 0 }));
/** How often the controls section has drawn (the wrapper keeps the real section). */
const controlsRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock("../components/device-controls.tsx", async (importOriginal) => {
  const real = await importOriginal<typeof import("../components/device-controls.tsx")>();
  return {
    ...real,
    DeviceControls: (props: Parameters<typeof real.DeviceControls>[0]) => {
      controlsRenders.count += 1;
      return createElement(real.DeviceControls, props);
    },
  };
});
vi.mock("../components/stats-section.tsx", async (importOriginal) => {
  const real = await importOriginal<typeof import("../components/stats-section.tsx")>();
  return {
    ...real,
    StatsSection: (props: Parameters<typeof real.StatsSection>[0]) => {
      statsRenders.count += 1;
      return createElement(real.StatsSection, props);
    },
  };
});

const info = (patch: Partial<TDeviceInfo> = {}) => deviceInfo({ lastReportTime: new Date().toISOString(), ...patch });
const route = routeOf("/Device", { deviceId: "d1", familyId: "f1" });
const background = {
  getFamilyDevices: { totalCount: 1, items: [{ id: "d1", name: "Kitchen softener", familyId: "f1", sort: 1 }] },
  queryOtaVersion: { updating: false, progress: null, currentVersion: "1.0", latestVersion: "1.0" },
  getUnitPreferences: { volumeUnit: "L", hardnessUnit: "mgL" },
};

describe("Device screen", () => {
  it("shows the device with its online state and last report, and opens its details", async () => {
    const view = await renderScreen(<DeviceScreen />, { route, api: { ...background, queryDeviceInfo: info() } });
    expect((await screen.findByTestId("device-name")).textContent).toBe("Kitchen softener");
    expect(screen.getByTestId("device-online").textContent).toBe("Online");
    expect(screen.getByTestId("device-last-report").textContent).toBe("Last reported just now");
    expect(view.api.lastCall("queryDeviceInfo").query).toEqual({ deviceId: "d1" });
    fireEvent.click(screen.getByTestId("device-open-attribute"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/DeviceAttribute");
  });

  it("a screen reader's activation of the forced switch, which cannot be held, asks first and then switches", async () => {
    const view = await renderScreen(<DeviceScreen />, {
      route,
      api: { ...background, queryDeviceInfo: info(), controlDevice: { status: "pending" } },
    });
    const hold = await screen.findByTestId("control-forced-switch");
    // A finger's short tap does nothing: the hold is the safety.
    fireEvent.click(hold, { detail: 1 });
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(hold, { detail: 0 });
    expect((await screen.findByRole("dialog")).textContent).toContain("Move the valve to its next step now?");
    expect(view.api.callsTo("controlDevice")).toHaveLength(0);
    await clickInDialog("Confirm");
    await waitFor(() => expect(view.api.callsTo("controlDevice")).toHaveLength(1));
    expect(view.api.lastCall("controlDevice").body).toEqual({ command: "forced-switch" });
  });

  it("an offline device says when it was last heard, links the faults and turns its controls off with why", async () => {
    const heard = "2026-05-01T14:02:00.000Z";
    const time = new Date(heard).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" });
    const view = await renderScreen(<DeviceScreen />, {
      route,
      api: { ...background, queryDeviceInfo: info({ online: false, lastHeardAt: heard }) },
    });
    expect((await screen.findByTestId("device-last-heard")).textContent).toContain(`Offline · last heard`);
    expect(screen.getByTestId("device-last-heard").getAttribute("data-heard")).toBe(heard);
    expect(screen.getByTestId("device-offline").textContent).toContain(time.replace(/^0/, ""));
    expect(screen.queryByTestId("device-channel")).toBeNull(); // never "Live"
    expect(screen.getByTestId("control-forced-regeneration").hasAttribute("disabled")).toBe(true);
    expect(screen.getByTestId("device-controls-off").textContent).toBe("Device offline");
    fireEvent.click(screen.getByTestId("device-offline"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/Fault");
  });

  it("a device whose reports the cloud refuses is never 'Live': a banner says since when and links the faults", async () => {
    const view = await renderScreen(<DeviceScreen />, {
      route,
      api: {
        ...background,
        queryDeviceInfo: info({
          online: true,
          reportsRefusedSince: "2026-05-01T14:02:00.000Z",
          reportsRefusedReason: "invalid",
        }),
      },
    });
    expect((await screen.findByTestId("device-reports-refused")).textContent).toContain("Reports not accepted since");
    expect(screen.queryByTestId("device-channel")).toBeNull();
    expect(screen.getByTestId("device-controls-off").textContent).toBe(
      "Controls are off while the device's reports are not accepted",
    );
    fireEvent.click(screen.getByTestId("device-reports-refused"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/Fault");
  });

  it("shows vacation mode and a close reason leading to the faults", async () => {
    const view = await renderScreen(<DeviceScreen />, {
      route,
      api: { ...background, queryDeviceInfo: info({ vacation: true, closeReason: 513, online: false }) },
    });
    expect(await screen.findByText("Vacation mode is on")).toBeTruthy();
    expect(screen.getByTestId("device-online").textContent).toBe("Offline");
    fireEvent.click(screen.getByTestId("device-close-reason"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/Fault");
  });

  it("while the device loads, shows the screen's frame: labels and controls' names, no figure, nothing to tap", async () => {
    let answer: (value: TDeviceInfo) => void = () => {};
    await renderScreen(<DeviceScreen />, {
      route,
      api: { ...background, queryDeviceInfo: () => new Promise<TDeviceInfo>((r) => (answer = r)) },
    });
    const frame = await screen.findByTestId("device-frame");
    expect(frame.hasAttribute("inert")).toBe(true);
    expect(frame.getAttribute("aria-busy")).toBe("true");
    for (const text of ["Current station", "Controls", "Forced regeneration", "Salt", "Low-salt reminder"]) {
      expect(frame.textContent, text).toContain(text);
    }
    // The household's list already names the device: the page's title is its name.
    await waitFor(() => expect(screen.getByText("Kitchen softener")).toBeTruthy());
    expect(screen.queryByTestId("device-name")).toBeNull();
    await act(async () => answer(info()));
    await waitFor(() => expect(screen.getByTestId("device-name")).toBeTruthy());
    expect(screen.queryByTestId("device-frame")).toBeNull();
  });

  it("opened by a link naming no device, says it could not load it instead of loading forever", async () => {
    await renderScreen(<DeviceScreen />, { route: routeOf("/Device", { familyId: "f1" }), api: background });
    expect(await screen.findByText("Could not load the device")).toBeTruthy();
    expect(screen.queryByTestId("device-frame")).toBeNull();
    expect(screen.queryByText("Retry")).toBeNull();
  });

  it("shows a load failure with a retry", async () => {
    await renderScreen(<DeviceScreen />, {
      route,
      api: { ...background, queryDeviceInfo: () => fail(403, "Not your device") },
    });
    expect(await screen.findByText("Could not load the device")).toBeTruthy();
    expect(screen.getByText("Retry")).toBeTruthy();
  });

  it("follows the device going offline on hub 1", async () => {
    const view = await renderScreen(<DeviceScreen />, { route, api: { ...background, queryDeviceInfo: info() } });
    await screen.findByTestId("device-name");
    const message = deviceChange({
      mac: "A1B2C3D4E5F6",
      online: false,
      station: null,
      remainingWaterL: null,
      flowRateLpm: null,
      lastReportTime: new Date().toISOString(),
    });
    await view.sendDeviceChange(message);
    await waitFor(() => expect(screen.getByTestId("device-online").textContent).toBe("Offline"));
  });

  it("follows a firmware update on hub 1 to its failure and says why; the controls come back", async () => {
    const view = await renderScreen(<DeviceScreen />, {
      route,
      api: {
        ...background,
        queryDeviceInfo: info(),
        queryOtaVersion: { ...background.queryOtaVersion, currentVersion: "1.0.0", latestVersion: "1.2.0" },
      },
    });
    await waitFor(() =>
      expect(screen.getByTestId("device-firmware-versions").textContent).toBe("Firmware 1.0.0 · latest 1.2.0"),
    );
    const event = (type: string, progress: number, reason?: string) =>
      deviceChange({ kind: "event", event: { type, closeReason: null, progress, ...(reason ? { reason } : {}) } });
    await view.sendDeviceChange(event("ota-progress", 40));
    await waitFor(() => expect(screen.getByTestId("device-ota").dataset.progress).toBe("40"));
    expect(screen.getByTestId("control-ota").hasAttribute("disabled")).toBe(true);
    await view.sendDeviceChange(event("ota-failed", 80, "hash"));
    await waitFor(() =>
      expect(screen.getByTestId("device-ota-outcome").textContent).toBe(
        "The firmware update failed: the downloaded image was corrupted. The device keeps version 1.0.0.",
      ),
    );
    expect(screen.queryByTestId("device-ota")).toBeNull();
    expect(screen.getByTestId("control-ota").hasAttribute("disabled")).toBe(false);
  });

  it("shows the last update's failure when the screen opens", async () => {
    await renderScreen(<DeviceScreen />, {
      route,
      api: {
        ...background,
        queryDeviceInfo: info(),
        queryOtaVersion: { ...background.queryOtaVersion, otaStatus: "failed", otaError: "boot", progress: 90 },
      },
    });
    const outcome = await screen.findByTestId("device-ota-outcome");
    expect(outcome.dataset.reason).toBe("boot");
    expect(outcome.textContent).toContain("the new version did not start");
  });

  it("ticks the countdown and the minutes since the last report without drawing the rest of the screen", async () => {
    // Reported 59.6 s ago, in backwash with 120 s left: within a second and a half "just now" becomes "1 minute ago"
    // and the countdown goes down, while the statistics below draw nothing again.
    const reported = new Date(Date.now() - 59_600).toISOString();
    await renderScreen(<DeviceScreen />, {
      route,
      api: {
        ...background,
        queryDeviceInfo: info({ lastReportTime: reported, station: 1, stationRemainingSeconds: 180 }),
      },
    });
    const remaining = await screen.findByTestId("device-remaining");
    expect(screen.getByTestId("device-last-report").textContent).toBe("Last reported just now");
    const before = Number(remaining.dataset.seconds);
    const drawn = statsRenders.count;
    expect(drawn).toBeGreaterThan(0);
    await waitFor(
      () => expect(screen.getByTestId("device-last-report").textContent).toBe("Last reported 1 minute ago"),
      {
        timeout: 2500,
      },
    );
    await waitFor(() => expect(Number(screen.getByTestId("device-remaining").dataset.seconds)).toBeLessThan(before));
    expect(statsRenders.count).toBe(drawn);
  });

  it("draws only what an answer or a live message changes: the controls and statistics stay as drawn", async () => {
    // The Device screen must be interactive within 2 s: after the first answers, the live channel connecting, a
    // re-read that brings the same figures and a live flow reading redraw the chip and the station card, not the
    // controls or the statistics below them.
    const view = await renderScreen(<DeviceScreen />, {
      route,
      api: { ...background, queryDeviceInfo: info({ flowRateLpm: 0 }), getSaltStatus: { levelKg: 40, daysLeft: 30 } },
    });
    await screen.findByTestId("device-name");
    await waitFor(() => expect(view.api.callsTo("getSaltStatus").length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.getByTestId("device-channel").dataset.state).toBe("2"));
    const controls = controlsRenders.count;
    const stats = statsRenders.count;
    expect(controls).toBeGreaterThan(0);
    expect(stats).toBeGreaterThan(0);

    // The hub reconnects: the chip says so, nothing else draws.
    await act(async () => view.hub.close?.(new Error("network")));
    await waitFor(() => expect(screen.getByTestId("device-channel").dataset.state).not.toBe("2"));
    await waitFor(() => expect(screen.getByTestId("device-channel").dataset.state).toBe("2"), { timeout: 5_000 });
    // The device, its salt and its durations read again with the same answers.
    await act(async () => view.queryClient.invalidateQueries());
    await waitFor(() => expect(view.queryClient.isFetching()).toBe(0));
    // A live reading: the flow shows, in the station card only.
    await view.sendDeviceChange(deviceChange({ flowRateLpm: 7.5, lastReportTime: new Date().toISOString() }));
    await waitFor(() => expect(screen.getByTestId("device-flow").textContent).toContain("7.5"));
    expect(controlsRenders.count).toBe(controls);
    expect(statsRenders.count).toBe(stats);
  });
});
