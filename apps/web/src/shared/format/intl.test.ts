import { describe, expect, it } from "vitest";
import { collator, dateTimeFormat, listFormat, numberFormat, relativeTimeFormat } from "./intl.ts";

describe("cached Intl formatters (each built once per locale and options)", () => {
  it("builds one formatter per locale and options, and it formats like the constructor's", () => {
    const a = numberFormat("ru", { maximumFractionDigits: 1 });
    expect(numberFormat("ru", { maximumFractionDigits: 1 })).toBe(a);
    expect(numberFormat("ru", { maximumFractionDigits: 0 })).not.toBe(a);
    expect(numberFormat("fr", { maximumFractionDigits: 1 })).not.toBe(a);
    expect(a.format(1234.56)).toBe(new Intl.NumberFormat("ru", { maximumFractionDigits: 1 }).format(1234.56));
    const d = dateTimeFormat("en", { timeZone: "Asia/Tokyo", hour: "2-digit", minute: "2-digit" });
    expect(dateTimeFormat("en", { timeZone: "Asia/Tokyo", hour: "2-digit", minute: "2-digit" })).toBe(d);
    expect(d.format(Date.UTC(2026, 0, 1, 0, 0))).toBe(
      new Intl.DateTimeFormat("en", { timeZone: "Asia/Tokyo", hour: "2-digit", minute: "2-digit" }).format(
        Date.UTC(2026, 0, 1, 0, 0),
      ),
    );
    expect(relativeTimeFormat("es", { numeric: "auto" }).format(-1, "day")).toBe("ayer");
    expect(collator("en").compare("a", "b")).toBeLessThan(0);
    expect(listFormat("en", { type: "unit" })).toBe(listFormat("en", { type: "unit" }));
  });

  it("throws the constructor's error for bad options, and caches nothing for them", () => {
    expect(() => dateTimeFormat("en", { timeZone: "Mars/Base" })).toThrow(RangeError);
    expect(() => dateTimeFormat("en", { timeZone: "Mars/Base" })).toThrow(RangeError);
  });
});
