import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { clickInDialog, fail, never, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { faultFixture } from "../logic/fault-fixture.ts";
import { FaultScreen } from "./fault-screen.tsx";

const control = { grantedPolicies: ["Device.View", "Device.Control", "AfterSale"] };

describe("Fault screen", () => {
  it("shows a skeleton while loading", async () => {
    const view = await renderScreen(<FaultScreen />, { route: "/Fault", api: { getFaultList: never } });
    expect(view.container.querySelector(".adm-skeleton-title")).not.toBeNull();
  });

  it("lists open and recent faults with their cause and actions", async () => {
    const view = await renderScreen(<FaultScreen />, {
      route: "/Fault",
      session: control,
      api: {
        getFaultList: [
          faultFixture(),
          faultFixture({ id: "close:d1:e0", open: false, clearedAt: "2026-06-10T10:00:00.000Z", closeReason: 257 }),
        ],
      },
    });
    expect(await screen.findByTestId("fault-open-section")).toBeTruthy();
    expect(screen.getByTestId("fault-recent-section")).toBeTruthy();
    expect(screen.getByTestId("fault-current").textContent).toContain(
      "A leak sensor found water on the floor, so the softener closed the water.",
    );
    expect(screen.getAllByTestId("fault-reopen")).toHaveLength(1);
    expect(view.api.lastCall("getFaultList").query).toEqual({});
    fireEvent.click(screen.getAllByTestId("fault-help")[0] as HTMLElement);
    expect(view.navigatedParams()).toEqual({ id: "fault-leak" });
  });

  it("asks one device's faults and says when there are none", async () => {
    const view = await renderScreen(<FaultScreen />, {
      route: routeOf("/Fault", { deviceId: "d1" }),
      api: { getFaultList: [] },
    });
    expect(await screen.findByText("This device has reported no fault in the last 30 days.")).toBeTruthy();
    expect(view.api.lastCall("getFaultList").query).toEqual({ deviceId: "d1" });
  });

  it("shows a load failure with a retry", async () => {
    await renderScreen(<FaultScreen />, { api: { getFaultList: () => fail(500, "Database down") } });
    expect(await screen.findByText("The faults could not be loaded.")).toBeTruthy();
    expect(screen.getByText("Try again")).toBeTruthy();
  });

  it("reopens the water after the confirmation with one command", async () => {
    const view = await renderScreen(<FaultScreen />, {
      session: control,
      api: {
        getFaultList: [faultFixture()],
        reopenWater: ({ query }) => ({ commandId: query.commandId, status: "done", error: null, message: null }),
      },
    });
    fireEvent.click(await screen.findByTestId("fault-reopen"));
    await clickInDialog("Reopen");
    await view.findToast("The water is open again.");
    const call = view.api.lastCall("reopenWater");
    expect(call.query.deviceId).toBe("d1");
    expect(call.headers["Idempotency-Key"]).toBe(call.query.commandId);
  });

  it("hides reopen and service without the permissions", async () => {
    await renderScreen(<FaultScreen />, { session: { grantedPolicies: [] }, api: { getFaultList: [faultFixture()] } });
    await screen.findByTestId("fault-current");
    await waitFor(() => expect(screen.queryByTestId("fault-reopen")).toBeNull());
    expect(screen.queryByTestId("fault-request-service")).toBeNull();
  });
});
