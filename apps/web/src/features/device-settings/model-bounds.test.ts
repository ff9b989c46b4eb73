import type { TDeviceModelSetting } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { readModelSetting } from "./model-bounds.ts";
import { SETTING_FIELDS } from "./settings-fields.ts";

const descriptor = (name: string, min: number | null, max: number | null) => ({
  name,
  type: "number" as const,
  unit: "kg",
  picker: null,
  min,
  max,
  step: null,
  options: null,
  readOnly: false,
});

describe("readModelSetting", () => {
  it("falls back to every field without a model answer", () => {
    expect(readModelSetting(null).fields).toBe(SETTING_FIELDS);
    expect(readModelSetting(null).bounds).toEqual({});
  });
  it("keeps the model's fields in screen order with their bounds", () => {
    const model: TDeviceModelSetting = {
      deviceModel: "AQ-S25",
      sources: [],
      fields: [descriptor("saltAddition", 0.5, 8), descriptor("workPattern", 0, 6)],
    };
    const read = readModelSetting(model);
    expect(read.fields.map((f) => f.name)).toEqual(["workPattern", "saltAddition"]);
    expect(read.bounds.saltAddition).toEqual({ min: 0.5, max: 8, step: null });
  });
});

describe("readModelSetting: model-specific kinds", () => {
  it("makes read-only fields read-only and takes the model's enum values", () => {
    const model: TDeviceModelSetting = {
      deviceModel: "AQ-S35",
      sources: [],
      fields: [
        { ...descriptor("saltAddition", 0, 8), readOnly: true },
        {
          ...descriptor("language", 0, 2),
          type: "enum",
          options: [
            { value: 0, label: "zh-Hans" },
            { value: 2, label: "es" },
          ],
        },
      ],
    };
    const read = readModelSetting(model);
    expect(read.fields.find((f) => f.name === "saltAddition")?.kind).toBe("readonly");
    expect(read.fields.find((f) => f.name === "language")?.options).toEqual([0, 2]);
  });
});
