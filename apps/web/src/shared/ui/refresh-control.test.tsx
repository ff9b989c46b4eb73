import { LANGUAGES } from "@aquapilot/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen } from "../testing/render.tsx";
import { ANNOUNCE_DELAY_MS } from "./live-region.ts";
import { PullToRefresh } from "./pull-to-refresh.tsx";

/** The button's name in each language, written from the locale files' intent, not read from them. */
const REFRESH: Record<(typeof LANGUAGES)[number], string> = {
  "zh-Hans": "刷新",
  en: "Refresh",
  es: "Actualizar",
  ru: "Обновить",
  fr: "Actualiser",
};

/** A promise and the function that settles it, as a refresh still running. */
function pending() {
  let settle: (ok: boolean) => void = () => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    settle = (ok) => (ok ? resolve() : reject(new Error("offline")));
  });
  return { promise, settle };
}

const status = () => screen.getByRole("status", { hidden: true });

describe("the pull gesture's keyboard and screen-reader equivalent", () => {
  it.each(LANGUAGES)("is a button named in %s before the list", async (language) => {
    await renderScreen(
      <PullToRefresh onRefresh={async () => undefined}>
        <p data-testid="list">list</p>
      </PullToRefresh>,
      { language },
    );
    const button = screen.getByRole("button", { name: REFRESH[language] });
    expect(button.compareDocumentPosition(screen.getByTestId("list")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("runs the gesture's refresh once at a time, says so, and announces when it is done", async () => {
    const runs: Array<ReturnType<typeof pending>> = [];
    await renderScreen(
      <PullToRefresh
        onRefresh={() => {
          const run = pending();
          runs.push(run);
          return run.promise;
        }}
      >
        <p>list</p>
      </PullToRefresh>,
    );
    const button = screen.getByTestId("refresh-control");
    fireEvent.click(button);
    fireEvent.click(button);
    expect(runs).toHaveLength(1);
    expect(button.textContent).toBe("Refreshing…");
    expect(button.getAttribute("aria-disabled")).toBe("true");
    await waitFor(() => expect(status().textContent).toBe("Refreshing…"), { timeout: ANNOUNCE_DELAY_MS + 1000 });
    runs[0].settle(true);
    await waitFor(() => expect(status().textContent).toBe("Refreshed"), { timeout: ANNOUNCE_DELAY_MS + 1000 });
    expect(button.textContent).toBe("Refresh");
    fireEvent.click(button);
    expect(runs).toHaveLength(2);
  });

  it("does not say refreshed when the refresh failed", async () => {
    const run = pending();
    await renderScreen(
      <PullToRefresh onRefresh={() => run.promise}>
        <p>list</p>
      </PullToRefresh>,
    );
    fireEvent.click(screen.getByTestId("refresh-control"));
    run.settle(false);
    await waitFor(() => expect(screen.getByTestId("refresh-control").textContent).toBe("Refresh"));
    await new Promise((r) => setTimeout(r, ANNOUNCE_DELAY_MS + 50));
    expect(status().textContent).not.toBe("Refreshed");
  });

  it("hides the gesture's head from assistive technology once antd-mobile's component is in", async () => {
    const view = await renderScreen(
      <PullToRefresh onRefresh={async () => undefined}>
        <p>list</p>
      </PullToRefresh>,
    );
    await waitFor(
      () => expect(view.container.querySelector(".adm-pull-to-refresh-head")?.getAttribute("aria-hidden")).toBe("true"),
      { timeout: 10_000 },
    );
  });
});
