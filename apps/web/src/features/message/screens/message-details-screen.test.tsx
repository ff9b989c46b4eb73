import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, never, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { MessageDetailsScreen } from "./message-details-screen.tsx";

const message = (id: string, extra: object = {}) => ({
  id,
  type: 1,
  title: `Alarm ${id}`,
  content: `Salt low on ${id}`,
  isRead: false,
  readTime: null,
  creationTime: "2026-03-01T10:00:00Z",
  deviceId: "d1",
  deviceName: "Kitchen softener",
  familyId: "f1",
  event: null,
  closeReason: null,
  ...extra,
});
const policies = { grantedPolicies: ["Message"] };

describe("MessageDetails screen: the message centre", () => {
  it("lists the messages with the unread badge and opens one", async () => {
    const view = await renderScreen(<MessageDetailsScreen />, {
      route: routeOf("/MessageDetails", { filter: "all" }),
      session: policies,
      api: {
        getUserMessageList: ({ query }) =>
          query.maxResultCount === "1"
            ? { totalCount: 2, items: [] }
            : { totalCount: 2, items: [message("m1"), message("m2", { isRead: true })] },
      },
    });
    await waitFor(() => expect(screen.getAllByTestId("message-row")).toHaveLength(2));
    expect(screen.getByText("Alarm m1")).toBeTruthy();
    expect(screen.getAllByTestId("message-row-unread")).toHaveLength(1);
    expect((await screen.findByTestId("message-unread-count")).textContent).toBe("2");
    fireEvent.click(screen.getByText("Alarm m2"));
    expect(view.navigatedParams()).toEqual({ id: "m2" });
  });

  it("shows the unread tab's empty state and says when nothing is unread", async () => {
    const view = await renderScreen(<MessageDetailsScreen />, {
      route: routeOf("/MessageDetails", { filter: "unread" }),
      session: policies,
      api: { getUserMessageList: { totalCount: 0, items: [] } },
    });
    expect(await screen.findByText("You're all caught up")).toBeTruthy();
    expect(view.api.calls.some((c) => c.query.isRead === "false" && c.query.maxResultCount === "15")).toBe(true);
    await waitFor(() => expect(view.api.callsTo("getUserMessageList").length).toBeGreaterThanOrEqual(2));
    fireEvent.click(screen.getByTestId("message-mark-all-read"));
    await view.findToast("No unread messages");
    expect(view.api.callsTo("setMessageAllRead")).toHaveLength(0);
  });

  it("marks all read", async () => {
    const view = await renderScreen(<MessageDetailsScreen />, {
      route: routeOf("/MessageDetails", { filter: "all" }),
      session: policies,
      api: { getUserMessageList: { totalCount: 1, items: [message("m1")] }, setMessageAllRead: { updated: 1 } },
    });
    await screen.findByTestId("message-unread-count");
    fireEvent.click(screen.getByTestId("message-mark-all-read"));
    await view.findToast("All messages marked as read");
    expect(view.api.callsTo("setMessageAllRead")).toHaveLength(1);
  });
});

describe("MessageDetails screen: one message", () => {
  it("shows a skeleton while loading", async () => {
    const view = await renderScreen(<MessageDetailsScreen />, {
      route: routeOf("/MessageDetails", { id: "m1" }),
      api: { getMessageDetail: never },
    });
    expect(view.container.querySelector(".adm-skeleton-title")).not.toBeNull();
  });

  it("shows the message, marks it read and opens its device", async () => {
    const view = await renderScreen(<MessageDetailsScreen />, {
      route: routeOf("/MessageDetails", { id: "m1" }),
      api: { getMessageDetail: message("m1"), setMessageRead: { updated: 1 } },
    });
    expect((await screen.findByTestId("message-detail-title")).textContent).toBe("Alarm m1");
    expect(screen.getByTestId("message-detail-type").textContent).toBe("Device alarm");
    expect(screen.getByTestId("message-detail-content").textContent).toBe("Salt low on m1");
    await waitFor(() => expect(view.api.lastCall("setMessageRead").body).toEqual({ ids: ["m1"] }));
    fireEvent.click(screen.getByTestId("message-open-device"));
    expect(view.navigatedParams()).toEqual({ deviceId: "d1", familyId: "f1" });
  });

  it("says a deleted message is gone", async () => {
    await renderScreen(<MessageDetailsScreen />, {
      route: routeOf("/MessageDetails", { id: "m9" }),
      api: { getMessageDetail: () => fail(404, "Not found") },
    });
    expect(await screen.findByText("This message no longer exists")).toBeTruthy();
  });
});
