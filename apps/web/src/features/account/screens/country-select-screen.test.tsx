import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { peekCountryChoice } from "../country-choice.ts";
import { CountrySelectScreen } from "./country-select-screen.tsx";

describe("CountrySelect screen", () => {
  it("lists the countries with calling codes and marks the chosen one", async () => {
    const view = await renderScreen(<CountrySelectScreen />, {
      route: routeOf("/CountrySelect", { selected: "FR" }),
      session: null,
    });
    expect(screen.getByTestId("country-FR").className).toContain("country--selected");
    expect(screen.getByTestId("country-DE").textContent).toContain("+49");
    expect(view.api.calls).toHaveLength(0);
  });

  it("filters by name and says when nothing matches", async () => {
    await renderScreen(<CountrySelectScreen />, { session: null });
    const input = screen.getByPlaceholderText(/search/i) as HTMLInputElement;
    fireEvent.change(input, { target: { value: "Germany" } });
    expect(screen.getByTestId("country-DE")).toBeTruthy();
    expect(screen.queryByTestId("country-FR")).toBeNull();
    fireEvent.change(input, { target: { value: "zzzz-none" } });
    expect(screen.getByTestId("country-empty")).toBeTruthy();
  });

  it("hands the chosen country to the calling page and goes back", async () => {
    const view = await renderScreen(<CountrySelectScreen />, {
      route: `${routeOf("/CountrySelect", { selected: "FR" })}&requestPageId=Register`,
      session: null,
    });
    fireEvent.click(screen.getByTestId("country-ES"));
    expect(peekCountryChoice("Register", true)).toBe("ES");
    expect(view.wentBack()).toBe(true);
  });
});
