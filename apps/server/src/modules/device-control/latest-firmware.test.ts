import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyWithDevices, signUpUser } from "../../../test/api-factories.ts";
import { call } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";

/** AQ_LATEST_FIRMWARE_VERSION (docs/configuration.md) replaces the shipped latest firmware of every model. */
describe("the configured latest firmware version", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { AQ_LATEST_FIRMWARE_VERSION: "9.9.9" } });
  });
  afterAll(async () => {
    await t.close();
  });

  it("is what query-ota-version offers as the latest version", async () => {
    const owner = await signUpUser(t.app);
    const family = await familyWithDevices(t, owner.token, 1);
    const answer = await call(t.app, endpoints.queryOtaVersion, {
      as: owner.token,
      query: { deviceId: family.devices[0].id },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ latestVersion: "9.9.9", updateAvailable: true });
  });
});
