import { describe, expect, it } from "vitest";
import { volumeText } from "./volume.ts";

const nbsp = /[\u00a0\u202f]/g;
const ru: Record<string, string> = { L: "л", gal: "гал", Lmin: "л/мин", galmin: "гал/мин" };
const en: Record<string, string> = { L: "L", gal: "gal", Lmin: "L/min", galmin: "gal/min" };

describe("volumes in the owner's unit (litres or US gallons)", () => {
  it("writes litres or US gallons with the language's number format and symbol", () => {
    expect(volumeText(3038, "L", "en", (k) => en[k])).toBe("3,038 L");
    expect(volumeText(3038, "L", "ru", (k) => ru[k]).replace(nbsp, " ")).toBe("3 038 л");
    expect(volumeText(3038, "gal", "en", (k) => en[k])).toBe("803 gal");
    expect(volumeText(37.85411784, "gal", "en", (k) => en[k])).toBe("10 gal");
    expect(volumeText(2.6, "L", "fr", (k) => en[k])).toBe("2,6 L");
  });

  it("writes flows per minute with one decimal", () => {
    expect(volumeText(7.5, "L", "en", (k) => en[k], "flow")).toBe("7.5 L/min");
    expect(volumeText(7.5, "gal", "ru", (k) => ru[k], "flow")).toBe("2 гал/мин");
    expect(volumeText(12, "gal", "en", (k) => en[k], "flow")).toBe("3.2 gal/min");
  });
});
