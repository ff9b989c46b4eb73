import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { DeviceImageScreen } from "./device-image-screen.tsx";

const device = { id: "d1", name: "Kitchen", familyId: "f1", mac: "A1B2", image: "/images/a.png" };
const route = routeOf("/DeviceImage", { deviceId: "d1" });
const options = () =>
  screen.getAllByTestId("device-image-option").map((o) => [o.getAttribute("data-image"), o.dataset.selected]);

describe("DeviceImage screen", () => {
  it("shows the model's images, main image first, with the current one selected", async () => {
    const view = await renderScreen(<DeviceImageScreen />, {
      route,
      api: {
        getDeviceWithData: device,
        getImagesByDeviceMac: ["/images/a.png", "/images/b.png"],
        getMainImageByDeviceMac: "/images/main.png",
      },
    });
    await waitFor(() =>
      expect(options()).toEqual([
        ["/images/main.png", "false"],
        ["/images/a.png", "true"],
        ["/images/b.png", "false"],
      ]),
    );
    expect(view.api.lastCall("getImagesByDeviceMac").query).toEqual({ mac: "A1B2" });
    expect(screen.getByTestId("device-image-save").hasAttribute("disabled")).toBe(true);
  });

  it("says when the model has no images", async () => {
    await renderScreen(<DeviceImageScreen />, {
      route,
      api: { getDeviceWithData: device, getImagesByDeviceMac: [], getMainImageByDeviceMac: null },
    });
    expect(await screen.findByText("This model has no images")).toBeTruthy();
  });

  it("saves another image and goes back", async () => {
    const view = await renderScreen(<DeviceImageScreen />, {
      route,
      api: {
        getDeviceWithData: device,
        getImagesByDeviceMac: ["/images/a.png", "/images/b.png"],
        getMainImageByDeviceMac: () => fail(404, "none"),
        updateDeviceImage: { ...device, image: "/images/b.png" },
      },
    });
    await waitFor(() => expect(options()).toHaveLength(2));
    fireEvent.click(screen.getAllByTestId("device-image-option")[1] as HTMLElement);
    fireEvent.click(screen.getByTestId("device-image-save"));
    await view.findToast("Image saved");
    expect(view.api.lastCall("updateDeviceImage").query).toEqual({ deviceId: "d1", image: "/images/b.png" });
    expect(view.wentBack()).toBe(true);
  });
});
