import type { TDeviceModelSetting } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { readModelSetting } from "./model-bounds.js";
import { SETTING_FIELDS } from "./settings-fields.js";

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
    expect(read.bounds.saltAddition).toEqual({ min: 0.5, max: 8 });
  });
});
