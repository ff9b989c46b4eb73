import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * White text on the blue heroes (styles.css `--hero-gradient`, `--hero-glass`): axe cannot judge text over a gradient,
 * so the ratios are computed here from the stylesheet's own colours, by WCAG 2.x's relative luminance.
 */

const css = fs.readFileSync(path.join(import.meta.dirname, "styles.css"), "utf8");

/** The value of custom property `name` in styles.css. */
function variable(name: string): string {
  const match = new RegExp(`${name}:\\s*([^;]+);`).exec(css);
  if (!match) throw new Error(`${name} missing in styles.css`);
  return match[1];
}

type Rgb = [number, number, number];

/** Relative luminance of an sRGB colour (WCAG 2.x). */
function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Contrast ratio of two colours. */
function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const hex = (h: string): Rgb => [0, 2, 4].map((i) => Number.parseInt(h.slice(1 + i, 3 + i), 16)) as Rgb;
const WHITE: Rgb = [255, 255, 255];

describe("white text on the heroes", () => {
  const stops = (variable("--hero-gradient").match(/#[0-9a-f]{6}/gi) ?? []).map(hex);
  const glass = /rgba\((\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\)/.exec(variable("--hero-glass"));

  it("reads at 4.5:1 or more on every stop of the gradient", () => {
    expect(stops.length).toBeGreaterThanOrEqual(2);
    for (const stop of stops) expect(contrast(WHITE, stop)).toBeGreaterThanOrEqual(4.5);
  });

  it("reads at 4.5:1 or more on the glass of a control over every stop", () => {
    expect(glass).not.toBeNull();
    const [r, g, b, a] = (glass as RegExpExecArray).slice(1).map(Number);
    for (const stop of stops) {
      const mixed = stop.map((c, i) => Math.round(a * [r, g, b][i] + (1 - a) * c)) as Rgb;
      expect(contrast(WHITE, mixed)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("is what the heroes use: no hero keeps the old light gradient", () => {
    expect(css).not.toMatch(/#25b3f0/i);
    expect(css.match(/background: var\(--hero-gradient\)/g)?.length).toBeGreaterThanOrEqual(4);
  });
});
