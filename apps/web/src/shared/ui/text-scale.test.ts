import { afterEach, describe, expect, it } from "vitest";
import { applyTextScale, followTextScale, LARGE_TEXT_SCALE, measureTextScale } from "./text-scale.ts";

/**
 * The text-scale measurement: happy-dom draws no enlarged text, so a stylesheet stands in for the engine by giving the
 * probe's 100 px a different computed size, as `text-size-adjust` or a web view's text zoom does.
 */
function drawTextAt(percent: number): HTMLStyleElement {
  const style = document.createElement("style");
  style.textContent = `span[aria-hidden="true"] { font-size: ${percent}px !important; }`;
  document.head.append(style);
  return style;
}

afterEach(() => {
  for (const el of document.head.querySelectorAll("style")) el.remove();
  document.documentElement.removeAttribute("data-large-text");
  document.documentElement.style.removeProperty("--text-scale");
});

describe("text scale", () => {
  it("measures the factor the page's text is drawn at, and leaves no probe behind", () => {
    expect(measureTextScale()).toBe(1);
    drawTextAt(200);
    expect(measureTextScale()).toBe(2);
    expect(document.body.querySelectorAll("span[aria-hidden]")).toHaveLength(0);
  });

  it("switches the large-text layout on from 130 % and off below it", () => {
    applyTextScale(1.29);
    expect(document.documentElement.hasAttribute("data-large-text")).toBe(false);
    expect(document.documentElement.style.getPropertyValue("--text-scale")).toBe("1.29");
    applyTextScale(LARGE_TEXT_SCALE);
    expect(document.documentElement.hasAttribute("data-large-text")).toBe(true);
    applyTextScale(1);
    expect(document.documentElement.hasAttribute("data-large-text")).toBe(false);
  });

  it("follows a change of the system's text size when the app comes back, until stopped", () => {
    const stop = followTextScale();
    expect(document.documentElement.hasAttribute("data-large-text")).toBe(false);
    drawTextAt(150);
    document.dispatchEvent(new Event("visibilitychange"));
    expect(document.documentElement.style.getPropertyValue("--text-scale")).toBe("1.5");
    expect(document.documentElement.hasAttribute("data-large-text")).toBe(true);
    stop();
    for (const el of document.head.querySelectorAll("style")) el.remove();
    window.dispatchEvent(new Event("resize"));
    expect(document.documentElement.style.getPropertyValue("--text-scale")).toBe("1.5");
  });
});
