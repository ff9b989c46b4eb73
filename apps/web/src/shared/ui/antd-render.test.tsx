import { act } from "react";
import { describe, expect, it } from "vitest";
import { antdRender, render, unmount } from "./antd-render.ts";

describe("antd-mobile's render under React 19", () => {
  it("renders into a container's own root, updates it, and unmounts it a task later", async () => {
    const box = document.createElement("div");
    await act(async () => render(<p>one</p>, box));
    expect(box.textContent).toBe("one");
    await act(async () => render(<p>two</p>, box));
    expect(box.textContent).toBe("two");
    await act(async () => unmount(box));
    expect(box.textContent).toBe("");
    // Unmounting a container without a root does nothing.
    await expect(unmount(document.createElement("div"))).resolves.toBeUndefined();
  });

  it("hands antd-mobile a close callback that unmounts what it rendered", async () => {
    const box = document.createElement("div");
    let close: () => Promise<void> = async () => undefined;
    await act(async () => {
      close = antdRender(<span>toast</span>, box);
    });
    expect(box.textContent).toBe("toast");
    await act(async () => close());
    expect(box.textContent).toBe("");
  });
});
