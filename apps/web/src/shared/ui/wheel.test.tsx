import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { rowForKey, WheelColumn } from "./wheel.tsx";

const OPTIONS = ["00", "01", "02", "03", "04", "05", "06", "07", "08", "09"];

/** A column holding its own selection, as the wheel popups do. */
function Column({ start }: { start: number }) {
  const [index, setIndex] = useState(start);
  return <WheelColumn options={OPTIONS} index={index} onChange={setIndex} testId="col" label="Minutes" />;
}

describe("wheel column from the keyboard", () => {
  it("rowForKey: a row per arrow, a page per Page Up/Down, the ends for Home/End, within the rows", () => {
    expect(rowForKey("ArrowDown", 3, 10)).toBe(4);
    expect(rowForKey("ArrowUp", 0, 10)).toBe(0);
    expect(rowForKey("PageDown", 3, 10)).toBe(8);
    expect(rowForKey("PageDown", 8, 10)).toBe(9);
    expect(rowForKey("PageUp", 3, 10)).toBe(0);
    expect(rowForKey("Home", 6, 10)).toBe(0);
    expect(rowForKey("End", 2, 10)).toBe(9);
    expect(rowForKey("a", 2, 10)).toBeNull();
  });

  it("is one named tab stop, its selected row; the keys move the selection and the focus goes with it", () => {
    render(<Column start={2} />);
    expect(screen.getByRole("listbox").getAttribute("aria-label")).toBe("Minutes");
    const tabbable = screen.getAllByRole("option").filter((row) => row.tabIndex === 0);
    expect(tabbable.map((row) => row.dataset.testid)).toEqual(["col-02"]);
    screen.getByTestId("col-02").focus();
    fireEvent.keyDown(screen.getByTestId("col-02"), { key: "ArrowDown" });
    expect(screen.getByTestId("col-03").getAttribute("aria-selected")).toBe("true");
    expect(document.activeElement).toBe(screen.getByTestId("col-03"));
    fireEvent.keyDown(screen.getByTestId("col-03"), { key: "End" });
    expect(document.activeElement).toBe(screen.getByTestId("col-09"));
    expect(screen.getByTestId("col-09").tabIndex).toBe(0);
    expect(screen.getByTestId("col-03").tabIndex).toBe(-1);
  });
});
