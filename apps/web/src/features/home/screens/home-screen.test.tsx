import { fireEvent, screen, waitFor } from "@testing-library/react";
import { createElement } from "react";
import { describe, expect, it, vi } from "vitest";
import { getItem, getUserFamily } from "../../../shared/storage/index.ts";
import { deviceChange, familyItem } from "../../../shared/testing/fixtures.ts";
import { never, renderScreen } from "../../../shared/testing/render.tsx";
import { HomeScreen } from "./home-screen.tsx";

/** How often Home's screen itself has drawn: PullToRefresh is its direct child (the wrapper keeps the real one). */
const screenRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../../shared/ui/pull-to-refresh.tsx", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../shared/ui/pull-to-refresh.tsx")>();
  return {
    ...real,
    PullToRefresh: (props: Parameters<typeof real.PullToRefresh>[0]) => {
      screenRenders.count += 1;
      return createElement(real.PullToRefresh, props);
    },
  };
});

const family = (id: string, name: string, isAdmin: boolean) => familyItem({ id, name, isAdmin, deviceCount: 1 });
const device = (id: string, name: string, online: boolean) => ({
  id,
  name,
  online,
  familyId: "f1",
  sort: 1,
  station: 0,
  mac: "A1B2C3D4E5F6",
  image: null,
  lastReportTime: null,
});
const dashboard = {
  familyId: "f1",
  timeZone: "UTC",
  dayStart: "2026-05-01T00:00:00Z",
  waterTodayL: 321,
  devices: [],
};
const api = (isAdmin: boolean, devices: object[]) => ({
  getFamilies: { totalCount: 1, items: [family("f1", "Lake house", isAdmin)] },
  getFamilyDevices: { totalCount: devices.length, items: devices },
  getFamilyDashboard: dashboard,
  getUnitPreferences: { volumeUnit: "L", hardnessUnit: "mgL" },
});

describe("Home screen", () => {
  it("shows skeletons while the households load", async () => {
    const view = await renderScreen(<HomeScreen />, { route: "/index/home", api: { getFamilies: never } });
    expect(view.container.querySelectorAll(".device-card--skeleton")).toHaveLength(2);
  });

  it("shows the household's devices, the water used today and remembers the household", async () => {
    const view = await renderScreen(<HomeScreen />, {
      session: { userName: "ann" },
      api: api(true, [device("d1", "Kitchen", true), device("d2", "Garage", false)]),
    });
    await waitFor(() => expect(screen.getAllByTestId("device-card")).toHaveLength(2));
    expect(screen.getByTestId("home-family").textContent).toBe("Lake house");
    expect(screen.getByTestId("home-water-today").dataset.value).toBe("321");
    expect(screen.getByText("2 devices")).toBeTruthy();
    expect(view.api.lastCall("getFamilyDashboard").query).toEqual({ familyId: "f1" });
    await waitFor(() => expect(getUserFamily("ann")).toBe("f1"));
    fireEvent.click(screen.getByText("Kitchen"));
    expect(view.navigatedParams()).toEqual({ deviceId: "d1", familyId: "f1" });
  });

  it("a device whose reports the cloud refuses carries a badge saying so; the badge goes with the next accepted report", async () => {
    const view = await renderScreen(<HomeScreen />, {
      api: api(true, [{ ...device("d1", "Kitchen", true), reportsRefusedSince: "2026-05-01T10:00:00.000Z" }]),
    });
    const card = await screen.findByTestId("device-card");
    await waitFor(() => expect(card.dataset.badges?.split(" ")).toContain("refused"));
    expect(card.textContent).toContain("Reports not accepted");
    await view.sendDeviceChange(
      deviceChange({ deviceId: "d1", mac: "A1B2C3D4E5F6", kind: "state", online: true, reportsRefusedSince: null }),
    );
    await waitFor(() => expect(screen.getByTestId("device-card").dataset.badges?.split(" ")).not.toContain("refused"));
  });

  it("draws a live message into its card, the count and the total without drawing the whole screen again", async () => {
    const view = await renderScreen(<HomeScreen />, {
      api: api(true, [device("d1", "Kitchen", true), device("d2", "Garage", true)]),
    });
    await waitFor(() => expect(screen.getAllByTestId("device-card")).toHaveLength(2));
    const drawn = screenRenders.count;
    await view.sendDeviceChange(
      deviceChange({ deviceId: "d1", mac: "A1B2C3D4E5F6", online: false, lastReportTime: new Date().toISOString() }),
    );
    await waitFor(() => expect(screen.getByText("Online 1")).toBeTruthy());
    const kitchen = screen.getAllByTestId("device-card").find((card) => card.textContent?.includes("Kitchen"));
    expect(kitchen?.querySelector('[data-testid="device-online"]')?.textContent).toBe("Offline");
    expect(screenRenders.count).toBe(drawn);
  });

  it("offers the administrator to add a device to an empty household", async () => {
    const view = await renderScreen(<HomeScreen />, { api: api(true, []) });
    expect(await screen.findByText("No devices yet")).toBeTruthy();
    fireEvent.click(screen.getByTestId("home-add-device-empty"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/DeviceNetwork");
    expect(view.navigatedParams()).toEqual({ familyId: "f1" });
  });

  it("tells a member that the administrator adds devices, without the admin actions", async () => {
    await renderScreen(<HomeScreen />, { api: api(false, []) });
    expect(
      await screen.findByText("The household's administrator adds its softeners; they will show here."),
    ).toBeTruthy();
    expect(screen.queryByTestId("home-add-device")).toBeNull();
    expect(screen.queryByTestId("home-invite")).toBeNull();
  });

  it("goes to NoFamily when the user has no household", async () => {
    const view = await renderScreen(<HomeScreen />, { api: { getFamilies: { totalCount: 0, items: [] } } });
    await waitFor(() => expect(view.navigatedTo()).toBe("/NoFamily"));
  });

  it("keeps its snapshot for the next start only once its devices show: when the owner leaves, and 2 s after its data", async () => {
    localStorage.removeItem("homeSnapshot");
    const pending = await renderScreen(<HomeScreen />, { api: { getFamilies: never } });
    pending.container.id = "root";
    window.dispatchEvent(new Event("pagehide"));
    expect(getItem("homeSnapshot")).toBeNull();
    pending.unmount();
    pending.container.removeAttribute("id");

    const view = await renderScreen(<HomeScreen />, { api: api(true, [device("d1", "Kitchen", true)]) });
    view.container.id = "root";
    await waitFor(() => expect(screen.getAllByTestId("device-card")).toHaveLength(1));
    window.dispatchEvent(new Event("pagehide"));
    const kept = getItem("homeSnapshot");
    expect(kept?.lang).toBe("en");
    expect(JSON.stringify(kept?.nodes)).toContain("Kitchen");

    localStorage.removeItem("homeSnapshot");
    await waitFor(() => expect(getItem("homeSnapshot")).not.toBeNull(), { timeout: 4_000 });
    view.unmount();
    window.dispatchEvent(new Event("pagehide"));
    localStorage.removeItem("homeSnapshot");
    window.dispatchEvent(new Event("pagehide"));
    expect(getItem("homeSnapshot")).toBeNull();
  });
});
