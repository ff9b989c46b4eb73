import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { setItem } from "../../../shared/storage/index.ts";
import { clickInDialog, renderScreen } from "../../../shared/testing/render.tsx";
import { FamilyCreateScreen } from "./family-create-screen.tsx";

const picked = {
  address: "1 Shore Road",
  longitude: 2.35,
  latitude: 48.85,
  province: "IDF",
  city: "Paris",
  district: "",
};
vi.mock("../../../shared/map/index.ts", () => ({ openAddressSelect: vi.fn(async () => picked) }));

const created = { id: "f7", name: "Cabin", isAdmin: true, memberCount: 1, deviceCount: 0 };

describe("FamilyCreate screen", () => {
  it("asks for a name first, then for the address, without calling the server", async () => {
    const view = await renderScreen(<FamilyCreateScreen />, { route: "/FamilyCreate" });
    fireEvent.click(screen.getByTestId("family-create-submit"));
    await view.findToast("Please enter the household name");
    fireEvent.change(screen.getByTestId("family-create-name"), { target: { value: "Cabin" } });
    fireEvent.click(screen.getByTestId("family-create-submit"));
    await view.findToast("Select household address");
    expect(view.api.callsTo("createFamily")).toHaveLength(0);
  });

  it("creates the first household with the chosen address and offers to add a device", async () => {
    const view = await renderScreen(<FamilyCreateScreen />, { api: { createFamily: created } });
    fireEvent.change(screen.getByTestId("family-create-name"), { target: { value: " Cabin " } });
    fireEvent.click(screen.getByTestId("family-create-address"));
    expect((await screen.findByText("1 Shore Road")).className).toContain("address-picker__main");
    fireEvent.click(screen.getByTestId("family-create-submit"));
    expect(await screen.findByTestId("family-create-add-device-offer")).toBeTruthy();
    expect(view.api.lastCall("createFamily").body).toMatchObject({
      name: "Cabin",
      address: "1 Shore Road",
      longitude: 2.35,
      latitude: 48.85,
      city: "Paris",
    });
    await clickInDialog("Add a device");
    expect(view.navigatedTo()?.split("?")[0]).toBe("/DeviceNetwork");
    expect(view.navigatedParams()).toEqual({ familyId: "f7" });
  });

  it("goes back with a toast when the user has a home household already", async () => {
    const view = await renderScreen(<FamilyCreateScreen />, { api: { createFamily: created } });
    setItem("userFamilyCache", { tester: "f1" });
    fireEvent.change(screen.getByTestId("family-create-name"), { target: { value: "Cabin" } });
    fireEvent.click(screen.getByTestId("family-create-address"));
    await screen.findByText("1 Shore Road");
    fireEvent.click(screen.getByTestId("family-create-submit"));
    await view.findToast("Household created");
    expect(view.wentBack()).toBe(true);
  });
});
