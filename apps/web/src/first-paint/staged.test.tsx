import { act, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import {
  COVERING_CLASS,
  drawingBeneathSnapshot,
  firstScreenComplete,
  firstScreenDrawn,
  resetFirstScreenDrawn,
  STAGING_CLASS,
  showStaged,
  stageBeneathSnapshot,
} from "./snapshot.ts";
import { Staged } from "./staged.tsx";

/** Lets the staged parts' tasks run (each `Staged` waits one task after it mounted). */
async function tasks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  }
}

describe("drawing the live Home beneath its snapshot, in short tasks", () => {
  afterEach(() => {
    resetFirstScreenDrawn();
    document.body.innerHTML = "";
    document.documentElement.removeAttribute("data-snapshot");
  });

  it("stages an invisible, inert container after the snapshot and swaps them in one step", () => {
    document.body.innerHTML = '<div id="root" inert aria-busy="true"><p>snapshot</p></div>';
    document.documentElement.setAttribute("data-snapshot", "home");
    const snapshot = document.getElementById("root") as HTMLElement;
    const staging = stageBeneathSnapshot(snapshot);
    expect(drawingBeneathSnapshot()).toBe(true);
    expect(snapshot.nextElementSibling).toBe(staging);
    expect(staging.className).toBe(STAGING_CLASS);
    expect(staging.inert).toBe(true);
    expect(staging.id).toBe("");
    // The snapshot is laid over the staging element (styles.css), which sits where the shown #root will be.
    expect(snapshot.classList.contains(COVERING_CLASS)).toBe(true);
    staging.textContent = "live";

    showStaged(snapshot, staging);
    expect(document.getElementById("root")).toBe(staging);
    expect(document.body.children).toHaveLength(1);
    expect(staging.hasAttribute("class")).toBe(false);
    expect(staging.inert).toBe(false);
    expect(staging.hasAttribute("aria-hidden")).toBe(false);
    expect(document.documentElement.hasAttribute("data-snapshot")).toBe(false);
    expect(drawingBeneathSnapshot()).toBe(false);
  });

  it("is complete when the screen says so, or at the limit", async () => {
    let done = false;
    void firstScreenComplete(10_000).then(() => {
      done = true;
    });
    await tasks(1);
    expect(done).toBe(false);
    firstScreenDrawn();
    await tasks(1);
    expect(done).toBe(true);

    resetFirstScreenDrawn();
    const started = Date.now();
    await firstScreenComplete(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it("Staged draws its part in a task of its own only while staging", async () => {
    const { container, unmount } = render(
      <div>
        <span>first</span>
        <Staged>
          <span>second</span>
        </Staged>
      </div>,
    );
    // Not staging: all at once.
    expect(container.textContent).toBe("firstsecond");
    unmount();

    document.body.innerHTML = '<div id="root"></div>';
    stageBeneathSnapshot(document.getElementById("root") as HTMLElement);
    const staged = render(
      <div>
        <span>first</span>
        <Staged>
          <span>second</span>
          <Staged>
            <span>third</span>
          </Staged>
        </Staged>
      </div>,
    );
    expect(staged.container.textContent).toBe("first");
    // Each part is laid out as it is drawn: a layout read of the staging element per part.
    const staging = document.querySelector(".root-staging") as HTMLElement;
    let layouts = 0;
    Object.defineProperty(staging, "offsetHeight", {
      get: () => {
        layouts += 1;
        return 0;
      },
    });
    await tasks(2);
    expect(staged.container.textContent).toContain("second");
    expect(layouts).toBeGreaterThanOrEqual(1);
    await tasks(4);
    expect(staged.container.textContent).toBe("firstsecondthird");
    expect(layouts).toBe(2);
  });
});
