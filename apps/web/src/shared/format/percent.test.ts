import { describe, expect, it } from "vitest";
import { formatPercent } from "./percent.ts";

const nbsp = /[\u00a0\u202f]/g;

describe("formatPercent (spec §9: one decimal, each language's way)", () => {
  it("rounds to one decimal and clamps to 0–100", () => {
    expect(formatPercent(42.25, "en")).toBe("42.3%");
    expect(formatPercent(0, "en")).toBe("0.0%");
    expect(formatPercent(100, "en")).toBe("100.0%");
    expect(formatPercent(130, "en")).toBe("100.0%");
    expect(formatPercent(-3, "en")).toBe("0.0%");
    expect(formatPercent(null, "en")).toBe("0.0%");
    expect(formatPercent(Number.NaN, "en")).toBe("0.0%");
  });

  it("writes the figure as each interface language does", () => {
    expect(formatPercent(71.4, "zh-Hans")).toBe("71.4%");
    expect(formatPercent(71.4, "fr").replace(nbsp, " ")).toBe("71,4 %");
    expect(formatPercent(71.4, "ru").replace(nbsp, " ")).toBe("71,4 %");
    expect(formatPercent(71.4, "es").replace(nbsp, " ")).toBe("71,4 %");
  });
});
