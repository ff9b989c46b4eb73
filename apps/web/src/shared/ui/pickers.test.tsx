import { waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { changeLanguage } from "../i18n/index.ts";
import { handleBack, openDialogCount } from "./back-stack.ts";
import { openDateTimePicker } from "./date-time-picker.tsx";
import { openListPicker } from "./list-picker.tsx";
import { openTimePicker } from "./time-picker.tsx";

describe("pickers take part in the back stack (spec §2: back closes the top dialog first)", () => {
  it("back closes the time picker before the page handles back", async () => {
    const pageBack = vi.fn();
    const result = openTimePicker({ value: "01:05:30" });
    await waitFor(() => expect(openDialogCount()).toBe(1));
    expect(handleBack(pageBack)).toBe("dialog");
    await expect(result).resolves.toBeNull();
    expect(pageBack).not.toHaveBeenCalled();
    expect(handleBack(pageBack)).toBe("page");
    expect(pageBack).toHaveBeenCalledOnce();
  });

  it("the list picker resolves the tapped option, and its confirm counts as closed for back", async () => {
    const result = openListPicker({
      options: [
        { value: "a", label: "Apple" },
        { value: "b", label: "Banana" },
      ],
    });
    const option = await waitFor(() => {
      const el = document.querySelector<HTMLButtonElement>('[data-testid="list-picker-option-b"]');
      expect(el).not.toBeNull();
      return el as HTMLButtonElement;
    });
    option.click();
    await expect(result).resolves.toEqual([{ value: "b", label: "Banana" }]);
    await waitFor(() => expect(openDialogCount()).toBe(0));
  });

  it('label their wheels with the spec\'s units in English: "Hr/Min" and "Min/Second" (spec §5)', async () => {
    await changeLanguage("en");
    const labels = () => [...document.querySelectorAll(".wheel-popup__labels > div")].map((d) => d.textContent);
    const minSec = openTimePicker({ value: "00:05:30" });
    await waitFor(() => expect(labels()).toEqual(["Min", "Second"]));
    await waitFor(() => expect(openDialogCount()).toBe(1));
    handleBack(() => {});
    await minSec;
    const hrMin = openDateTimePicker({ type: "time", value: "02:00" });
    await waitFor(() => expect(labels()).toEqual(["Hr", "Min"]));
    await waitFor(() => expect(openDialogCount()).toBe(1));
    handleBack(() => {});
    await hrMin;
  });
});
