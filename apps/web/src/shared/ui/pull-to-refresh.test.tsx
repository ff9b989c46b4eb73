import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { useEffect } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { PullToRefresh } from "./pull-to-refresh.tsx";

afterEach(cleanup);

describe("PullToRefresh (antd-mobile's component after the first screen)", () => {
  it("moves the content into antd-mobile's component without building it again", async () => {
    let mounts = 0;
    function Content() {
      useEffect(() => {
        mounts += 1;
      }, []);
      return (
        <p data-testid="content">
          device list <img alt="" src="data:," />
        </p>
      );
    }
    const { container } = render(
      <PullToRefresh onRefresh={async () => undefined}>
        <Content />
      </PullToRefresh>,
    );
    // Before the real component: the content shows at once, inside the placeholder's content box.
    const first = screen.getByTestId("content");
    expect(first.closest(".adm-pull-to-refresh-content")).not.toBeNull();
    expect(container.querySelector(".adm-pull-to-refresh-head")).toBeNull();

    // antd-mobile's component has its pull head; the content is the same element, mounted once.
    await waitFor(() => expect(container.querySelector(".adm-pull-to-refresh-head")).not.toBeNull(), {
      timeout: 10_000,
    });
    const after = screen.getByTestId("content");
    expect(after).toBe(first);
    expect(container.contains(after)).toBe(true);
    expect(after.closest(".adm-pull-to-refresh-content")).not.toBeNull();
    expect(mounts).toBe(1);
  });

  it("updates the moved content and removes it with the component", async () => {
    const { container, rerender, unmount } = render(
      <PullToRefresh onRefresh={async () => undefined}>
        <p data-testid="content">one</p>
      </PullToRefresh>,
    );
    await waitFor(() => expect(container.querySelector(".adm-pull-to-refresh-head")).not.toBeNull(), {
      timeout: 10_000,
    });
    rerender(
      <PullToRefresh onRefresh={async () => undefined}>
        <p data-testid="content">two</p>
      </PullToRefresh>,
    );
    expect(screen.getByTestId("content").textContent).toBe("two");
    unmount();
    expect(screen.queryByTestId("content")).toBeNull();
  });
});
