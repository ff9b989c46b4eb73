import { describe, expect, it } from "vitest";
import { formatMessage, pluralBlocks, templateParams } from "./message-format.ts";

const RU_DAYS = "осталось {n, plural, one {# день} few {# дня} many {# дней} other {# дня}}";

describe("formatMessage (docs/glossary.md 'Plurals': ICU plural subset)", () => {
  it("fills simple placeholders and keeps unknown ones", () => {
    expect(formatMessage("en", "Wait {seconds} s, {who}", { seconds: 42 })).toBe("Wait 42 s, {who}");
  });

  it("picks the English form by count: 1 day, 2 days, 0 days", () => {
    const t = "about {days, plural, one {# day} other {# days}} left";
    expect(formatMessage("en", t, { days: 1 })).toBe("about 1 day left");
    expect(formatMessage("en", t, { days: 2 })).toBe("about 2 days left");
    expect(formatMessage("en", t, { days: 0 })).toBe("about 0 days left");
  });

  it("picks the four Russian forms by the CLDR rules (1, 21 one; 2–4 few; 5–20, 25 many; fractions other)", () => {
    const ru = (n: number) => formatMessage("ru", RU_DAYS, { n });
    expect(ru(1)).toBe("осталось 1 день");
    expect(ru(21)).toBe("осталось 21 день");
    expect(ru(3)).toBe("осталось 3 дня");
    expect(ru(22)).toBe("осталось 22 дня");
    expect(ru(5)).toBe("осталось 5 дней");
    expect(ru(11)).toBe("осталось 11 дней");
    expect(ru(25)).toBe("осталось 25 дней");
    expect(ru(1.5)).toBe("осталось 1.5 дня");
  });

  it("uses French 'one' for 0 and 1, and the only form of zh-Hans for every number", () => {
    const fr = "{n, plural, one {# jour} many {# jours} other {# jours}}";
    expect(formatMessage("fr", fr, { n: 0 })).toBe("0 jour");
    expect(formatMessage("fr", fr, { n: 2 })).toBe("2 jours");
    expect(formatMessage("zh-Hans", "约剩 {n, plural, other {# 天}}", { n: 1 })).toBe("约剩 1 天");
  });

  it("prefers an exact =N branch, takes numeric strings, and fills placeholders inside a branch", () => {
    const t = "{device}: {n, plural, =0 {no tries} one {# try for {device}} other {# tries}}";
    expect(formatMessage("en", t, { device: "Kitchen", n: 0 })).toBe("Kitchen: no tries");
    expect(formatMessage("en", t, { device: "Kitchen", n: "1" })).toBe("Kitchen: 1 try for Kitchen");
    expect(formatMessage("en", t, { device: "Kitchen", n: 7 })).toBe("Kitchen: 7 tries");
  });

  it("leaves a plural block whose number is missing or not a number as it is", () => {
    const t = "left: {n, plural, one {# day} other {# days}}";
    expect(formatMessage("en", t, {})).toBe(t);
    expect(formatMessage("en", t, { n: "soon" })).toBe(t);
  });

  it("keeps malformed blocks as text", () => {
    expect(formatMessage("en", "{n, plural, one {# day}}", { n: 1 })).toBe("{n, plural, one {# day}}");
    expect(formatMessage("en", "{n, plural, one {# day", { n: 1 })).toBe("{n, plural, one {# day");
  });
});

describe("pluralBlocks and templateParams", () => {
  it("lists the blocks with their selectors and every parameter a template uses", () => {
    const t = "{device} has {days, plural, one {# day} other {# days of {unit}}} and {n} tries";
    expect(pluralBlocks(t)).toEqual([{ param: "days", branches: { one: "# day", other: "# days of {unit}" } }]);
    expect(templateParams(t)).toEqual(["days", "device", "n", "unit"]);
    expect(templateParams("no params")).toEqual([]);
  });
});
