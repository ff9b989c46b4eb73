import { describe, expect, it } from "vitest";
import {
  changedSettings,
  checkSetting,
  DEVICE_UNITS,
  displayRangeOf,
  displayUnitOf,
  editedFieldNames,
  formatNumberText,
  hrMinTextToMinutes,
  minSecTextToMinutes,
  minutesToHrMinText,
  minutesToMinSecText,
  parseInRange,
  SETTING_FIELDS,
  SETTING_NAMES,
  type SettingField,
  settingToText,
  type UnitContext,
  wireToDisplayText,
} from "./settings-fields.ts";

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
    expect(checkSetting(field("saltAddition"), "12", { min: 0, max: 10 })).toEqual({ ok: false, problem: "range" });
  });
  it("checks enums, durations and clocks", () => {
    expect(checkSetting(field("workPattern"), "6")).toEqual({ ok: true, value: 6 });
    expect(checkSetting(field("workPattern"), "7")).toEqual({ ok: false, problem: "choice" });
    expect(checkSetting(field("backWashTime"), "00:12:30")).toEqual({ ok: true, value: 12.5 });
    expect(checkSetting(field("backWashTime"), "00:12:30", { max: 12 })).toEqual({ ok: false, problem: "range" });
    expect(checkSetting(field("regeneratingTriggerTime"), "03:15")).toEqual({ ok: true, value: "03:15" });
    expect(checkSetting(field("regeneratingTriggerTime"), "24:00")).toEqual({ ok: false, problem: "time" });
    expect(checkSetting(field("currentTime"), "2026-01-01")).toEqual({ ok: false, problem: "format" });
    expect(checkSetting(field("backWashIntervalNumber"), "2.5")).toEqual({ ok: false, problem: "integer" });
    expect(checkSetting(field("saltAddition"), "lots")).toEqual({ ok: false, problem: "format" });
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

/** The owner's units: shown and typed in them, sent in the device's. */
describe("settings in the owner's units", () => {
  const gal: UnitContext = { volumeUnit: "gal", hardnessUnit: "dH", lang: "en" };
  const ctxWith = (hardnessUnit: UnitContext["hardnessUnit"], lang = "en"): UnitContext => ({
    volumeUnit: "L",
    hardnessUnit,
    lang,
  });
  // The model's bounds (docs/device-protocol.md §9).
  const hardness = { min: 30, max: 2500, step: 1 };
  const resin = { min: 1, max: 200, step: 0.5 };
  const flow = { min: 0, max: 999, step: 1 };
  const production = { min: 0, max: 999999, step: 1 };

  it("shows each quantity in the chosen unit", () => {
    expect(displayUnitOf(field("resinVolume"), gal).key).toBe("gal");
    expect(displayUnitOf(field("flowRateOff"), gal).key).toBe("galmin");
    expect(displayUnitOf(field("flowRateOff"), DEVICE_UNITS).key).toBe("Lmin");
    expect(displayUnitOf(field("rawWaterHardness"), gal).key).toBe("dH");
    expect(displayUnitOf(field("saltAddition"), gal)).toEqual({ key: "kg", factor: 1, decimals: 1 });
    expect(displayUnitOf(field("periodicWaterProduction"), gal).key).toBe("gal");
    // A device counting its periodic production in m³ keeps m³ (nothing converted).
    expect(displayUnitOf(field("periodicWaterProduction"), { ...gal, periodicUnit: 1 })).toMatchObject({
      key: "m3",
      factor: 1,
    });
  });

  it("converts the device's values for display, rounded about the device's resolution", () => {
    expect(wireToDisplayText(field("rawWaterHardness"), 250, ctxWith("mgL"), 1)).toBe("250");
    expect(wireToDisplayText(field("rawWaterHardness"), 250, ctxWith("dH"), 1)).toBe("14");
    expect(wireToDisplayText(field("rawWaterHardness"), 300, ctxWith("dH"), 1)).toBe("16.8");
    expect(wireToDisplayText(field("rawWaterHardness"), 250, ctxWith("fH"), 1)).toBe("25");
    expect(wireToDisplayText(field("rawWaterHardness"), 250, ctxWith("gpg"), 1)).toBe("14.6");
    expect(wireToDisplayText(field("resinVolume"), 25, gal, 0.5)).toBe("6.6");
    expect(wireToDisplayText(field("flowRateOff"), 60, gal, 1)).toBe("15.9");
    expect(wireToDisplayText(field("resinVolume"), 25.5, DEVICE_UNITS, 0.5)).toBe("25.5");
    // The language's decimal mark.
    expect(wireToDisplayText(field("rawWaterHardness"), 300, ctxWith("dH", "fr"), 1)).toBe("16,8");
    expect(settingToText(field("resinVolume"), 25, gal, 0.5)).toBe("6.6");
  });

  it("states the allowed range in each unit, rounded to what is accepted", () => {
    const range = (f: string, bounds: object, ctx: UnitContext) => {
      const r = displayRangeOf(field(f), bounds, ctx);
      return (
        r &&
        `${formatNumberText(r.min, ctx.lang, r.unit.factor === 1 ? 6 : r.unit.decimals)}–${formatNumberText(
          r.max,
          ctx.lang,
          r.unit.factor === 1 ? 6 : r.unit.decimals,
        )} ${r.unit.key}`
      );
    };
    expect(range("rawWaterHardness", hardness, ctxWith("mgL"))).toBe("30–2500 mgL");
    expect(range("rawWaterHardness", hardness, ctxWith("dH"))).toBe("1.7–140.1 dH");
    expect(range("rawWaterHardness", hardness, ctxWith("fH"))).toBe("3–250 fH");
    expect(range("rawWaterHardness", hardness, ctxWith("gpg"))).toBe("1.8–146 gpg");
    expect(range("rawWaterHardness", hardness, ctxWith("dH", "ru"))).toBe("1,7–140,1 dH");
    expect(range("resinVolume", resin, gal)).toBe("0.3–52.8 gal");
    expect(range("resinVolume", resin, DEVICE_UNITS)).toBe("1–200 L");
    expect(range("flowRateOff", flow, gal)).toBe("0–263.9 galmin");
    expect(range("periodicWaterProduction", production, gal)).toBe("0–264172 gal");
    expect(range("saltAddition", { min: 0.5, max: 50 }, gal)).toBe("0.5–50 kg");
  });

  it("accepts exactly the range as shown and sends the nearest value the device takes", () => {
    const dH = ctxWith("dH");
    expect(checkSetting(field("rawWaterHardness"), "14", hardness, dH)).toEqual({ ok: true, value: 250 });
    expect(checkSetting(field("rawWaterHardness"), "1,7", hardness, dH)).toEqual({ ok: true, value: 30 });
    // 140.1 °dH is 2500.5 mg/L: inside the range as shown, sent as the device's maximum.
    expect(checkSetting(field("rawWaterHardness"), "140.1", hardness, dH)).toEqual({ ok: true, value: 2500 });
    expect(checkSetting(field("rawWaterHardness"), "140.2", hardness, dH)).toEqual({ ok: false, problem: "range" });
    expect(checkSetting(field("rawWaterHardness"), "1.6", hardness, dH)).toEqual({ ok: false, problem: "range" });
    expect(checkSetting(field("rawWaterHardness"), "10", hardness, ctxWith("gpg"))).toEqual({ ok: true, value: 171 });
    expect(checkSetting(field("rawWaterHardness"), "25", hardness, ctxWith("fH"))).toEqual({ ok: true, value: 250 });
    // Litres of resin in steps of 0.5; flows in whole L/min.
    expect(checkSetting(field("resinVolume"), "7", resin, gal)).toEqual({ ok: true, value: 26.5 });
    expect(checkSetting(field("resinVolume"), "53", resin, gal)).toEqual({ ok: false, problem: "range" });
    expect(checkSetting(field("flowRateOff"), "15.9", flow, gal)).toEqual({ ok: true, value: 60 });
    // The periodic production reads in whole gallons; its top shown (264 172 gal) is sent as the device's maximum.
    expect(checkSetting(field("periodicWaterProduction"), "264172", production, gal)).toEqual({
      ok: true,
      value: 999999,
    });
    expect(checkSetting(field("periodicWaterProduction"), "1000", production, gal)).toEqual({ ok: true, value: 3785 });
    // The device's own units: as typed.
    expect(checkSetting(field("rawWaterHardness"), "250", hardness, DEVICE_UNITS)).toEqual({ ok: true, value: 250 });
  });

  it("sends only what the owner changed, in the device's units", () => {
    const current = { rawWaterHardness: 250, resinVolume: 25, flowRateOff: 60, saltAddition: 3 };
    const bounds = { rawWaterHardness: hardness, resinVolume: resin, flowRateOff: flow };
    const shown = { rawWaterHardness: "14", resinVolume: "6.6", flowRateOff: "15.9", saltAddition: "3" };
    expect(editedFieldNames(current, shown, bounds, gal)).toEqual([]);
    expect(changedSettings(current, shown, bounds, gal)).toEqual({ settings: {} });
    expect(changedSettings(current, { ...shown, rawWaterHardness: "20", resinVolume: "8" }, bounds, gal)).toEqual({
      settings: { rawWaterHardness: 357, resinVolume: 30.5 },
    });
    expect(changedSettings(current, { ...shown, rawWaterHardness: "200" }, bounds, gal)).toEqual({
      invalid: ["rawWaterHardness"],
    });
  });
});
