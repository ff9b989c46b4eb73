import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { DeviceSortScreen } from "./device-sort-screen.tsx";

const device = (id: string, name: string, sort: number) => ({ id, name, sort, familyId: "f1", online: true });
const list = {
  totalCount: 3,
  items: [device("d2", "Garage", 2), device("d1", "Kitchen", 1), device("d3", "Cellar", 3)],
};
const route = routeOf("/DeviceSort", { familyId: "f1" });
const names = () => screen.getAllByTestId("device-sort-row").map((r) => r.getAttribute("data-device-id"));

describe("DeviceSort screen", () => {
  it("shows the household's devices in their order, Save disabled until moved", async () => {
    const view = await renderScreen(<DeviceSortScreen />, { route, api: { getFamilyDevices: list } });
    await waitFor(() => expect(names()).toEqual(["d1", "d2", "d3"]));
    expect(screen.getByTestId("device-sort-save").hasAttribute("disabled")).toBe(true);
    expect(view.api.lastCall("getFamilyDevices").query).toEqual({ familyId: "f1" });
  });

  it("moves a device down and saves the whole order", async () => {
    const view = await renderScreen(<DeviceSortScreen />, {
      route,
      api: { getFamilyDevices: list, updateDeviceSort: [device("d2", "Garage", 1), device("d1", "Kitchen", 2)] },
    });
    await waitFor(() => expect(names()).toEqual(["d1", "d2", "d3"]));
    fireEvent.click(screen.getAllByTestId("device-sort-down")[0] as HTMLElement);
    expect(names()).toEqual(["d2", "d1", "d3"]);
    fireEvent.click(screen.getByTestId("device-sort-save"));
    await view.findToast("Order saved");
    expect(view.api.lastCall("updateDeviceSort").body).toEqual({ familyId: "f1", deviceIds: ["d2", "d1", "d3"] });
    expect(view.wentBack()).toBe(true);
  });

  it("shows the empty household", async () => {
    await renderScreen(<DeviceSortScreen />, { route, api: { getFamilyDevices: { totalCount: 0, items: [] } } });
    expect(await screen.findByText("This household has no devices")).toBeTruthy();
  });

  it("shows the server's refusal of the order", async () => {
    const view = await renderScreen(<DeviceSortScreen />, {
      route,
      api: { getFamilyDevices: list, updateDeviceSort: () => fail(403, "Only the administrator can sort") },
    });
    await waitFor(() => expect(names()).toHaveLength(3));
    fireEvent.click(screen.getAllByTestId("device-sort-up")[2] as HTMLElement);
    fireEvent.click(screen.getByTestId("device-sort-save"));
    await view.findToast("Only the administrator can sort");
    expect(view.wentBack()).toBe(false);
  });
});
