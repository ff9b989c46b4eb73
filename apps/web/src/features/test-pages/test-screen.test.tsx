import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen } from "../../shared/testing/render.tsx";
import { TestScreen } from "./test-screen.tsx";

describe("Test screen (component test 1)", () => {
  it("shows its picker buttons and no result yet", async () => {
    await renderScreen(<TestScreen />, { route: "/Test", session: null });
    expect(screen.getByText("Component test 1")).toBeTruthy();
    expect(screen.getByTestId("test-result").textContent).toBe("(none)");
    expect(screen.getByText("List picker (single)")).toBeTruthy();
  });

  it("prints the fruit chosen in the single list picker", async () => {
    await renderScreen(<TestScreen />, { session: null });
    fireEvent.click(screen.getByTestId("test-open-list-single"));
    const option = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-testid="list-picker-option-banana"]');
      if (!el) throw new Error("picker not open");
      return el;
    });
    fireEvent.click(option);
    await waitFor(() => expect(screen.getByTestId("test-result").textContent).toBe("banana"));
    expect(screen.getByTestId("test-result-source").textContent).toBe("list-single");
  });

  it("goes to the next test page", async () => {
    const view = await renderScreen(<TestScreen />, { session: null });
    fireEvent.click(screen.getByTestId("test-next"));
    expect(view.navigatedTo()).toBe("/Test2");
  });
});
