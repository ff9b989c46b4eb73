import { describe, expect, it } from "vitest";
import {
  changedSettings,
  checkSetting,
  hrMinTextToMinutes,
  minSecTextToMinutes,
  minutesToHrMinText,
  minutesToMinSecText,
  parseInRange,
  SETTING_FIELDS,
  SETTING_NAMES,
  type SettingField,
  settingToText,
} from "./settings-fields.js";

const field = (name: string): SettingField => {
  const f = SETTING_FIELDS.find((x) => x.name === name);
  if (!f) throw new Error(name);
  return f;
};

describe("settings fields (spec §3)", () => {
  it("covers exactly the 26 fields of §3, once each", () => {
    expect(SETTING_NAMES).toHaveLength(26);
    expect(new Set(SETTING_FIELDS.map((f) => f.name))).toEqual(new Set(SETTING_NAMES));
    expect(SETTING_FIELDS).toHaveLength(26);
  });
  it("states salt in kg and hardness in mg/L", () => {
    expect(field("saltAddition").unit).toBe("kg");
    expect(field("rawWaterHardness").unit).toBe("mgL");
    expect(field("workPattern").options).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe("parseInRange (spec §5 number range check)", () => {
  it("accepts numbers inside the inclusive bounds", () => {
    expect(parseInRange("3", { min: 0, max: 500 })).toBe(3);
    expect(parseInRange(" 2.5 ", { min: 0, max: 5 })).toBe(2.5);
    expect(parseInRange("2,5", { min: 0, max: 5 })).toBe(2.5);
    expect(parseInRange("0", { min: 0, max: 5 })).toBe(0);
    expect(parseInRange("5", { min: 0, max: 5 })).toBe(5);
  });
  it("refuses text, out-of-range and fractional values for whole fields", () => {
    expect(parseInRange("", { min: 0 })).toBeNull();
    expect(parseInRange("abc", {})).toBeNull();
    expect(parseInRange("1e3", {})).toBeNull();
    expect(parseInRange("5.01", { max: 5 })).toBeNull();
    expect(parseInRange("-1", { min: 0 })).toBeNull();
    expect(parseInRange("1.5", {}, true)).toBeNull();
    expect(parseInRange("Infinity", {})).toBeNull();
  });
});

describe("time field conversions", () => {
  it("Min/Second: minutes ↔ picker text with the §5 hour fold", () => {
    expect(minutesToMinSecText(10)).toBe("00:10:00");
    expect(minutesToMinSecText(10.5)).toBe("00:10:30");
    expect(minutesToMinSecText(65.5)).toBe("01:05:30");
    expect(minutesToMinSecText(500)).toBe("01:39:59");
    expect(minSecTextToMinutes("01:05:30")).toBe(65.5);
    expect(minSecTextToMinutes("10:30")).toBe(10.5);
    expect(minSecTextToMinutes("x")).toBeNull();
  });
  it("Hr/Min: minutes ↔ HH:mm", () => {
    expect(minutesToHrMinText(90)).toBe("01:30");
    expect(minutesToHrMinText(0)).toBe("00:00");
    expect(hrMinTextToMinutes("01:30")).toBe(90);
    expect(hrMinTextToMinutes("01:60")).toBeNull();
    expect(settingToText(field("continuousWaterTime"), 60)).toBe("01:00");
    expect(settingToText(field("backWashTime"), 8)).toBe("00:08:00");
  });
});

describe("checkSetting and changedSettings", () => {
  it("uses the model's bounds over the built-in ones", () => {
    expect(checkSetting(field("saltAddition"), "12")).toEqual({ ok: true, value: 12 });
    expect(checkSetting(field("saltAddition"), "12", { min: 0, max: 10 })).toEqual({ ok: false });
  });
  it("checks enums, durations and clocks", () => {
    expect(checkSetting(field("workPattern"), "6")).toEqual({ ok: true, value: 6 });
    expect(checkSetting(field("workPattern"), "7")).toEqual({ ok: false });
    expect(checkSetting(field("backWashTime"), "00:12:30")).toEqual({ ok: true, value: 12.5 });
    expect(checkSetting(field("backWashTime"), "00:12:30", { max: 12 })).toEqual({ ok: false });
    expect(checkSetting(field("regeneratingTriggerTime"), "03:15")).toEqual({ ok: true, value: "03:15" });
    expect(checkSetting(field("regeneratingTriggerTime"), "24:00")).toEqual({ ok: false });
    expect(checkSetting(field("currentTime"), "2026-01-01")).toEqual({ ok: false });
  });
  it("sends only the changed fields, or names the wrong ones", () => {
    const current = { saltAddition: 3, backWashTime: 10, regeneratingTriggerTime: "02:00", workPattern: 0 };
    expect(
      changedSettings(current, { saltAddition: "3", backWashTime: "00:10:00", regeneratingTriggerTime: "02:00" }),
    ).toEqual({ settings: {} });
    expect(changedSettings(current, { saltAddition: "4", workPattern: "2" })).toEqual({
      settings: { saltAddition: 4, workPattern: 2 },
    });
    expect(changedSettings(current, { saltAddition: "-1", resinVolume: "abc" })).toEqual({
      invalid: ["saltAddition", "resinVolume"],
    });
    expect(changedSettings(current, { saltAddition: "9" }, { saltAddition: { max: 8 } })).toEqual({
      invalid: ["saltAddition"],
    });
  });
});
