import { act, render, renderHook, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Dialog, Popup } from "./popup.tsx";
import { POPUP_SHOW_FALLBACK_MS, usePopupVisible } from "./popup-visible.ts";

/** The hook under a component whose `visible` starts as `initial`; rerender({ visible }) changes it. */
const track = (initial: boolean) =>
  renderHook(({ visible }) => usePopupVisible(visible), { initialProps: { visible: initial } });

describe("usePopupVisible: a close asked for while a popup opens waits until it is shown", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows at once; a close before afterShow is held, then done by afterShow", () => {
    const { result, rerender } = track(false);
    expect(result.current.visible).toBe(false);
    rerender({ visible: true });
    expect(result.current.visible).toBe(true);
    rerender({ visible: false });
    expect(result.current.visible).toBe(true);
    act(() => result.current.afterShow());
    expect(result.current.visible).toBe(false);
  });

  it("a close after the popup reported itself shown is done at once; a new opening is held again", () => {
    const { result, rerender } = track(false);
    rerender({ visible: true });
    act(() => result.current.afterShow());
    rerender({ visible: false });
    expect(result.current.visible).toBe(false);
    rerender({ visible: true });
    rerender({ visible: false });
    expect(result.current.visible).toBe(true);
  });

  it("a popup mounted visible (no opening animation, no afterShow) closes at once", () => {
    const { result, rerender } = track(true);
    expect(result.current.visible).toBe(true);
    rerender({ visible: false });
    expect(result.current.visible).toBe(false);
  });

  it("a popup that never reports itself shown closes after the fallback", () => {
    vi.useFakeTimers();
    const { result, rerender } = track(false);
    rerender({ visible: true });
    rerender({ visible: false });
    act(() => vi.advanceTimersByTime(POPUP_SHOW_FALLBACK_MS - 1));
    expect(result.current.visible).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.visible).toBe(false);
  });

  it("the caller's afterShow is called as the popup's own would be", () => {
    const afterShow = vi.fn();
    const { result } = renderHook(() => usePopupVisible(true, afterShow));
    act(() => result.current.afterShow());
    expect(afterShow).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      "Popup",
      (open: boolean) => (
        <Popup visible={open} destroyOnClose>
          <div data-testid="sheet">sheet</div>
        </Popup>
      ),
      ".adm-popup",
    ],
    [
      "Dialog",
      (open: boolean) => <Dialog visible={open} destroyOnClose content={<div data-testid="sheet">sheet</div>} />,
      ".adm-center-popup",
    ],
  ] as const)(
    "the app's %s closed right after it opened leaves the page (no layer kept, no scroll lock)",
    async (_name, draw, layerSelector) => {
      let setOpen: (open: boolean) => void = () => {};
      function Sheet() {
        const [open, set] = useState(false);
        setOpen = set;
        return draw(open);
      }
      render(<Sheet />);
      for (let round = 0; round < 3; round++) {
        act(() => setOpen(true));
        // The close before the opening animation has drawn a frame: a back right after the tap.
        act(() => setOpen(false));
        await waitFor(() => expect(document.querySelector('[data-testid="sheet"]')).toBeNull(), { timeout: 3_000 });
        const layer = document.querySelector<HTMLElement>(layerSelector);
        expect(layer === null || layer.style.display === "none").toBe(true);
      }
    },
  );
});
