import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { DeviceNetworkScreen } from "./device-network-screen.tsx";

const families = (isAdmin: boolean) => ({
  totalCount: 1,
  items: [{ id: "f1", name: "Lake house", isAdmin, memberCount: 1, deviceCount: 0 }],
});
const step = () => screen.getByTestId("device-network-screen").querySelector(".ns-body")?.getAttribute("data-step");

describe("DeviceNetwork screen", () => {
  it("starts on the mode step with the household and the three ways", async () => {
    const view = await renderScreen(<DeviceNetworkScreen />, {
      route: routeOf("/DeviceNetwork", { familyId: "f1" }),
      api: { getFamilies: families(true) },
    });
    expect(step()).toBe("mode");
    expect(await screen.findByText("New version")).toBeTruthy();
    expect(screen.getByText("Old version")).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("network-setup-family").textContent).toContain("Lake house"));
    expect(screen.queryByTestId("network-setup-admin-only")).toBeNull();
    fireEvent.click(screen.getByTestId("network-setup-mode-code"));
    expect(view.navigatedParams()).toMatchObject({ familyId: "f1", step: "code" });
  });

  it("tells a member that only the administrator adds devices", async () => {
    await renderScreen(<DeviceNetworkScreen />, {
      route: routeOf("/DeviceNetwork", { familyId: "f1" }),
      api: { getFamilies: families(false) },
    });
    expect(await screen.findByTestId("network-setup-admin-only")).toBeTruthy();
    expect(screen.getByTestId("network-setup-mode-ble").hasAttribute("disabled")).toBe(true);
  });

  it("binds a device by its pairing code and goes on to naming it", async () => {
    const view = await renderScreen(<DeviceNetworkScreen />, {
      route: routeOf("/DeviceNetwork", { familyId: "f1", code: "A1B2C3D4E5F6:SECRET1" }),
      api: {
        getFamilies: families(true),
        bindDevice: { id: "d9", name: "AquaPilot", familyId: "f1", mac: "A1B2C3D4E5F6", sort: 1, online: true },
      },
    });
    expect(step()).toBe("code");
    await waitFor(() => expect(screen.getByTestId("add-device-family").textContent).toContain("Lake house"));
    fireEvent.click(screen.getByTestId("add-device-bind"));
    await view.findToast("Device added");
    expect(view.api.lastCall("bindDevice").body).toEqual({ familyId: "f1", mac: "A1B2C3D4E5F6", secret: "SECRET1" });
    expect(view.navigatedTo()?.split("?")[0]).toBe("/DeviceNetworkNameUpdate");
    expect(view.navigatedParams()).toEqual({ deviceId: "d9", familyId: "f1" });
  });

  it("refuses a wrong pairing code, and shows the server's refusal", async () => {
    const view = await renderScreen(<DeviceNetworkScreen />, {
      route: routeOf("/DeviceNetwork", { familyId: "f1", step: "code" }),
      api: { getFamilies: families(true), bindDevice: () => fail(400, "The pairing code has expired") },
    });
    const input = screen.getByTestId("add-device-code");
    fireEvent.change(input, { target: { value: "nonsense" } });
    fireEvent.click(screen.getByTestId("add-device-bind"));
    await view.findToast("This is not a device pairing code");
    expect(view.api.callsTo("bindDevice")).toHaveLength(0);
    await waitFor(() => expect(screen.getByTestId("add-device-family").textContent).toContain("Lake house"));
    fireEvent.change(input, { target: { value: "A1B2C3D4E5F6:SECRET1" } });
    fireEvent.click(screen.getByTestId("add-device-bind"));
    await view.findToast("The pairing code has expired");
  });
});
