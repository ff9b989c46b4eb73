import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { AfterSaleListScreen } from "./after-sale-list-screen.tsx";

const request = (id: string, handled: boolean) => ({
  id,
  deviceId: "d1",
  deviceName: "Kitchen softener",
  familyId: "f1",
  description: `Leaking ${id}`,
  photos: ["/uploads/files/a.jpg"],
  contactPhone: null,
  handled,
  handledTime: null,
  reply: null,
  diagnostics: null,
  creationTime: "2026-05-01T09:00:00Z",
  lastModificationTime: null,
});

describe("AfterSaleList screen", () => {
  it("lists the pending requests and opens one", async () => {
    const view = await renderScreen(<AfterSaleListScreen />, {
      route: routeOf("/AfterSaleList", { tab: "unhandled" }),
      api: { getAfterSaleList: { totalCount: 1, items: [request("r1", false)] } },
    });
    expect((await screen.findByTestId("after-sale-row-description")).textContent).toBe("Leaking r1");
    expect(screen.getByTestId("after-sale-row-status").textContent).toBe("Pending");
    expect(view.api.lastCall("getAfterSaleList").query).toMatchObject({ handled: "false", skipCount: "0" });
    fireEvent.click(screen.getByTestId("after-sale-row"));
    expect(view.navigatedParams()).toEqual({ id: "r1" });
  });

  it("shows the handled tab's empty state", async () => {
    const view = await renderScreen(<AfterSaleListScreen />, {
      route: routeOf("/AfterSaleList", { tab: "handled" }),
      api: { getAfterSaleList: { totalCount: 0, items: [] } },
    });
    expect(await screen.findByText("No handled requests yet")).toBeTruthy();
    expect(view.api.lastCall("getAfterSaleList").query).toMatchObject({ handled: "true" });
  });

  it("opens a new request", async () => {
    const view = await renderScreen(<AfterSaleListScreen />, {
      api: { getAfterSaleList: { totalCount: 0, items: [] } },
    });
    fireEvent.click(screen.getByTestId("after-sale-new"));
    expect(view.navigatedTo()).toBe("/AfterSaleCreate");
  });
});
