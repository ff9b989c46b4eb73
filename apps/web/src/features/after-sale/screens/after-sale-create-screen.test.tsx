import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { clickInDialog, fail, never, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { AfterSaleCreateScreen } from "./after-sale-create-screen.tsx";

const request = (handled: boolean) => ({
  id: "r1",
  deviceId: "d1",
  deviceName: "Kitchen softener",
  familyId: "f1",
  description: "Leaking at the valve",
  photos: [],
  contactPhone: null,
  handled,
  handledTime: null,
  reply: handled ? "We replaced the seal." : null,
  diagnostics: null,
  creationTime: "2026-05-01T09:00:00Z",
  lastModificationTime: null,
});
const devices = {
  getDeviceList: { totalCount: 1, items: [{ id: "d1", name: "Kitchen softener", familyId: "f1", sort: 1 }] },
  getFamilies: { totalCount: 1, items: [{ id: "f1", name: "Home" }] },
};
const describeProblem = (text: string) =>
  fireEvent.change(screen.getByTestId("after-sale-description"), { target: { value: text } });

describe("AfterSaleCreate screen: a new request", () => {
  it("chooses the only device, checks the description and files the request", async () => {
    const view = await renderScreen(<AfterSaleCreateScreen />, {
      route: "/AfterSaleCreate",
      api: { ...devices, createAfterSale: request(false) },
    });
    expect(await screen.findByText("Kitchen softener")).toBeTruthy();
    describeProblem("Bad");
    fireEvent.click(screen.getByTestId("after-sale-submit"));
    await view.findToast("Please describe the problem in at least 5 characters");
    describeProblem("  Water on the floor  ");
    fireEvent.click(screen.getByTestId("after-sale-submit"));
    await view.findToast("Request sent. We'll get back to you soon.");
    expect(view.api.lastCall("createAfterSale").body).toEqual({
      deviceId: "d1",
      description: "Water on the floor",
      photos: [],
      attachDiagnostics: false,
    });
    expect(view.wentBack()).toBe(true);
  });

  it("says when there are no devices to choose", async () => {
    await renderScreen(<AfterSaleCreateScreen />, {
      api: { getDeviceList: { totalCount: 0, items: [] }, getFamilies: { totalCount: 0, items: [] } },
    });
    expect(await screen.findByTestId("after-sale-no-devices")).toBeTruthy();
  });

  it("starts from the fault screen's device and description", async () => {
    await renderScreen(<AfterSaleCreateScreen />, {
      route: routeOf("/AfterSaleCreate", { deviceId: "d1", description: "Closed by leak", attachDiagnostics: true }),
      api: devices,
    });
    expect((screen.getByTestId("after-sale-description") as HTMLTextAreaElement).value).toBe("Closed by leak");
  });
});

describe("AfterSaleCreate screen: an existing request", () => {
  it("shows a skeleton while loading", async () => {
    const view = await renderScreen(<AfterSaleCreateScreen />, {
      route: routeOf("/AfterSaleCreate", { id: "r1" }),
      api: { getAfterSale: never },
    });
    expect(view.container.querySelector(".adm-skeleton-title")).not.toBeNull();
  });

  it("edits a pending request and withdraws it after the confirmation, never asking for it again", async () => {
    let answerDelete: () => void = () => undefined;
    const view = await renderScreen(<AfterSaleCreateScreen />, {
      route: routeOf("/AfterSaleCreate", { id: "r1" }),
      api: {
        getAfterSale: request(false),
        deleteAfterSale: () =>
          new Promise<null>((resolve) => {
            answerDelete = () => resolve(null);
          }),
      },
    });
    expect((await screen.findByTestId("after-sale-device-name")).textContent).toBe("Kitchen softener");
    expect((screen.getByTestId("after-sale-description") as HTMLTextAreaElement).value).toBe("Leaking at the valve");
    fireEvent.click(screen.getByTestId("after-sale-delete"));
    await clickInDialog("Withdraw");
    await waitFor(() => expect(view.api.callsTo("deleteAfterSale")).toHaveLength(1));
    // The household's "after-sale" event can arrive before the DELETE's answer: the request is not asked for again.
    await act(() => view.queryClient.invalidateQueries({ queryKey: ["after-sale"] }));
    answerDelete();
    await view.findToast("Request withdrawn");
    expect(view.api.lastCall("deleteAfterSale").params).toEqual({ id: "r1" });
    expect(view.api.callsTo("getAfterSale")).toHaveLength(1);
  });

  it("shows a handled request read-only with the reply", async () => {
    await renderScreen(<AfterSaleCreateScreen />, {
      route: routeOf("/AfterSaleCreate", { id: "r1" }),
      api: { getAfterSale: request(true) },
    });
    expect((await screen.findByTestId("after-sale-reply")).textContent).toContain("We replaced the seal.");
    expect(screen.queryByTestId("after-sale-submit")).toBeNull();
  });

  it("says a withdrawn request is gone", async () => {
    await renderScreen(<AfterSaleCreateScreen />, {
      route: routeOf("/AfterSaleCreate", { id: "r9" }),
      api: { getAfterSale: () => fail(404, "Not found") },
    });
    await waitFor(() => expect(screen.getByTestId("after-sale-error").textContent).toContain("no longer exists"));
  });
});
