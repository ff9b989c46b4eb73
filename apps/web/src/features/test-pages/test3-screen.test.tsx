import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen } from "../../shared/testing/render.tsx";
import { Test3Screen } from "./test3-screen.tsx";

describe("Test3 screen (component test 3)", () => {
  it("shows its dialog and map buttons", async () => {
    await renderScreen(<Test3Screen />, { route: "/Test3", session: null });
    expect(screen.getByText("Component test 3")).toBeTruthy();
    expect(screen.getByText("Bottom alert with clear")).toBeTruthy();
    expect(screen.queryByTestId("test-address-page-result")).toBeNull();
  });

  it("opens the address page with its request page id and prints where it went", async () => {
    const view = await renderScreen(<Test3Screen />, { session: null });
    fireEvent.click(screen.getByTestId("test-open-address-select-page"));
    await waitFor(() => expect(screen.getByTestId("test-result").textContent).toBe("→ /AddressSelect"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/AddressSelect");
    expect(view.navigatedTo()).toContain("requestPageId=");
  });
});
