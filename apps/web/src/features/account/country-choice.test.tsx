import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { peekCountryChoice, peekDraft, saveDraft, setCountryChoice, useReturnedState } from "./country-choice.ts";

afterEach(cleanup);

function Form() {
  const [form] = useReturnedState(
    "Test",
    () => ({ account: "", country: "CN" }),
    (d, iso2) => ({ ...d, country: iso2 }),
  );
  return <div data-testid="form">{`${form.account}|${form.country}`}</div>;
}

describe("CountrySelect hand-back", () => {
  it("a screen gets its draft back with the chosen country, once", async () => {
    saveDraft("Test", { account: "0612345678", country: "CN" });
    setCountryChoice("Test", "FR");
    await act(async () => render(<Form />));
    expect(screen.getByTestId("form").textContent).toBe("0612345678|FR");
    expect(peekDraft("Test")).toBeNull();
    expect(peekCountryChoice("Test")).toBeNull();
    cleanup();
    render(<Form />);
    expect(screen.getByTestId("form").textContent).toBe("|CN");
  });
});
