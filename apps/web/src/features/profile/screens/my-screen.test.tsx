import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { getItem } from "../../../shared/storage/index.ts";
import { clickInDialog, renderScreen } from "../../../shared/testing/render.tsx";
import { MyScreen } from "./my-screen.tsx";

const profile = { userName: "ann", name: "Ann Lee", email: "ann@example.com", phoneNumber: null, avatar: null };
const all = ["Message", "AfterSale", "Device.View", "Family.Manage"];

describe("My screen", () => {
  it("shows the profile and the menu the permissions allow, with the unread badge", async () => {
    const view = await renderScreen(<MyScreen />, {
      route: "/index/My",
      session: { userName: "ann", grantedPolicies: all },
      api: { getProfile: profile, getUserMessageList: { totalCount: 3, items: [] } },
    });
    expect((await screen.findByTestId("my-user-name")).textContent).toBe("Ann Lee");
    expect(screen.getByTestId("my-user-contact").textContent).toBe("ann@example.com");
    expect((await screen.findByTestId("my-menu-messageCentre-badge")).textContent).toBe("3");
    expect(screen.getByText("After-sales")).toBeTruthy();
    expect(view.api.lastCall("getUserMessageList").query).toMatchObject({ isRead: "false", maxResultCount: "1" });
    fireEvent.click(screen.getByText("Settings"));
    expect(view.navigatedTo()).toBe("/Setting");
  });

  it("hides what the user may not open and disables my shares", async () => {
    await renderScreen(<MyScreen />, {
      session: { userName: "ann", grantedPolicies: [] },
      api: { getProfile: profile },
    });
    await screen.findByText("Ann Lee");
    expect(screen.queryByText("Message centre")).toBeNull();
    expect(screen.queryByText("After-sales")).toBeNull();
    expect(screen.queryByText("Faults")).toBeNull();
    expect(screen.getByTestId("my-menu-myShares").className).toContain("disabled");
  });

  it("falls back to the stored user name while the profile loads", async () => {
    await renderScreen(<MyScreen />, {
      session: { userName: "ann" },
      api: { getProfile: () => new Promise(() => {}) },
    });
    expect(screen.getByTestId("my-user-name").textContent).toBe("ann");
  });

  it("signs out after the confirmation", async () => {
    const view = await renderScreen(<MyScreen />, { session: { userName: "ann" }, api: { getProfile: profile } });
    const reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, reload });
    fireEvent.click(screen.getByTestId("logout"));
    await clickInDialog("Sign out");
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(getItem("token")).toBeNull();
    expect(window.location.hash).toBe("#/login");
    expect(view.api.calls.some((c) => c.path === "/connect/revocation")).toBe(true);
  });
});
