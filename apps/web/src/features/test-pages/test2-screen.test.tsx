import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen } from "../../shared/testing/render.tsx";
import { handleBack } from "../../shared/ui/back-stack.ts";
import { Test2Screen } from "./test2-screen.tsx";

describe("Test2 screen (component test 2)", () => {
  it("shows its date and time picker buttons", async () => {
    await renderScreen(<Test2Screen />, { route: "/Test2", session: null });
    expect(screen.getByText("Component test 2")).toBeTruthy();
    expect(screen.getByText("Date and time (yyyy-MM-dd HH:mm)")).toBeTruthy();
    expect(screen.getByTestId("test-result").textContent).toBe("(none)");
  });

  it("prints cancelled when the picker is closed with back", async () => {
    await renderScreen(<Test2Screen />, { session: null });
    fireEvent.click(screen.getByTestId("test-open-datetime"));
    await waitFor(() => expect(handleBack(() => {})).toBe("dialog"));
    await waitFor(() => expect(screen.getByTestId("test-result").textContent).toBe("cancelled"));
    expect(screen.getByTestId("test-result-source").textContent).toBe("datetime");
  });

  it("goes to the next test page", async () => {
    const view = await renderScreen(<Test2Screen />, { session: null });
    fireEvent.click(screen.getByTestId("test-next"));
    expect(view.navigatedTo()).toBe("/Test3");
  });
});
