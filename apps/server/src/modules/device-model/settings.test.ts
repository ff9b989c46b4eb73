import { ADVANCED_SETTING_NAMES } from "@aquapilot/contract";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { registerErrorHandler } from "../../http/error-handler.ts";
// The modules' texts this test translates (each module registers its own when loaded).
import "../../../test/catalogue.ts";
import { AppError } from "../../http/errors.ts";
import { knownSettingModels, modelSetting, validateDeviceSettings } from "./settings.ts";

describe("advanced settings per model (spec §3, §5)", () => {
  it("describes all 26 fields for a full model, with units and sources", () => {
    expect(knownSettingModels()).toEqual(["AQ-S15", "AQ-S25", "AQ-S35"]);
    const all = modelSetting("AQ-S35");
    expect(all.fields.map((f) => f.name)).toEqual([...ADVANCED_SETTING_NAMES]);
    expect(all.sources.some((s) => s.includes("Autotrol"))).toBe(true);
    expect(modelSetting("AQ-S15").fields.map((f) => f.name)).not.toContain("outRelayMode");
  });

  it("accepts values inside the bounds, numeric text included, and normalises them", () => {
    expect(
      validateDeviceSettings("AQ-S25", {
        backWashTime: "12",
        saltAddition: 2.5,
        regeneratingTriggerTime: "03:30",
        workPattern: 6,
        currentTime: "2026-03-01T10:00:00Z",
      }),
    ).toEqual({
      backWashTime: 12,
      saltAddition: 2.5,
      regeneratingTriggerTime: "03:30",
      workPattern: 6,
      currentTime: "2026-03-01T10:00:00Z",
    });
  });

  it("names every offending field: out of bounds, bad time, unknown, absent from the model, read-only", () => {
    try {
      validateDeviceSettings("AQ-S15", {
        backWashTime: 100,
        workPattern: 7,
        regeneratingTriggerTime: "25:00",
        bogus: 1,
        outRelayMode: 0,
        operationDay: 3,
        saltAddition: 3,
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).validationErrors?.[0].members).toEqual([
        "backWashTime",
        "workPattern",
        "regeneratingTriggerTime",
        "bogus",
        "outRelayMode",
        "operationDay",
      ]);
    }
    expect(() => validateDeviceSettings("AQ-S25", {})).toThrow(AppError);
  });

  it("answers the §5 text in English and Chinese through the error handler", async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get("/check", async () => validateDeviceSettings("AQ-S25", { rawWaterHardness: 5 }));
    for (const [lang, text] of [
      ["en", "Please enter the correct configuration"],
      ["zh-Hans", "请输入正确的配置"],
    ]) {
      const res = await app.inject({ method: "GET", url: "/check", headers: { "accept-language": lang } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: "Validation",
        message: text,
        validationErrors: [{ message: text, members: ["rawWaterHardness"] }],
      });
    }
    await app.close();
  });
});
