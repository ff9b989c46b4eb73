import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useLongPress } from "./hooks.ts";

/** A button held as the forced switch is (device-controls.tsx), counting completed holds. */
function HoldButton({
  onFire,
  onActivate,
  disabled,
}: {
  onFire: () => void;
  onActivate?: () => void;
  disabled?: boolean;
}) {
  const hold = useLongPress(onFire, disabled, onActivate);
  return (
    <button type="button" data-progress={hold.progress.toFixed(2)} {...hold.handlers}>
      hold
    </button>
  );
}

describe("press and hold by keyboard (spec §4 forced switch, WCAG 2.1.1)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it.each([" ", "Enter"])(
    "holding %j for 2 s fires once; the key's auto-repeat does not restart the hold",
    async (key) => {
      const fired = vi.fn();
      render(<HoldButton onFire={fired} />);
      const button = screen.getByRole("button");
      button.focus();
      fireEvent.keyDown(button, { key });
      for (let t = 0; t < 19; t++) {
        await act(async () => vi.advanceTimersByTime(100));
        fireEvent.keyDown(button, { key, repeat: true });
      }
      expect(fired).not.toHaveBeenCalled();
      expect(Number(button.dataset.progress)).toBeGreaterThan(0.8);
      await act(async () => vi.advanceTimersByTime(150));
      expect(fired).toHaveBeenCalledTimes(1);
      fireEvent.keyUp(button, { key });
    },
  );

  it("releasing the key, or leaving the button, before 2 s fires nothing; other keys do nothing", async () => {
    const fired = vi.fn();
    render(<HoldButton onFire={fired} />);
    const button = screen.getByRole("button");
    fireEvent.keyDown(button, { key: " " });
    await act(async () => vi.advanceTimersByTime(1500));
    fireEvent.keyUp(button, { key: " " });
    fireEvent.keyDown(button, { key: "Enter" });
    await act(async () => vi.advanceTimersByTime(1500));
    fireEvent.blur(button);
    fireEvent.keyDown(button, { key: "a" });
    await act(async () => vi.advanceTimersByTime(3000));
    expect(fired).not.toHaveBeenCalled();
    expect(button.dataset.progress).toBe("0.00");
  });
});

describe("press and hold with a screen reader (its activation cannot be held)", () => {
  afterEach(cleanup);

  it("a click with no pointer or key behind it runs the accessible alternative, never the hold's action", () => {
    const fired = vi.fn();
    const activated = vi.fn();
    render(<HoldButton onFire={fired} onActivate={activated} />);
    fireEvent.click(screen.getByRole("button"), { detail: 0 });
    expect(activated).toHaveBeenCalledTimes(1);
    expect(fired).not.toHaveBeenCalled();
  });

  it("a finger's short tap (a click with a pointer behind it) does neither", () => {
    const fired = vi.fn();
    const activated = vi.fn();
    render(<HoldButton onFire={fired} onActivate={activated} />);
    const button = screen.getByRole("button");
    fireEvent.pointerDown(button);
    fireEvent.pointerUp(button);
    fireEvent.click(button, { detail: 1 });
    expect(activated).not.toHaveBeenCalled();
    expect(fired).not.toHaveBeenCalled();
  });

  it("does nothing while the control is disabled", () => {
    const activated = vi.fn();
    render(<HoldButton onFire={() => undefined} onActivate={activated} disabled />);
    fireEvent.click(screen.getByRole("button"), { detail: 0 });
    expect(activated).not.toHaveBeenCalled();
  });
});
