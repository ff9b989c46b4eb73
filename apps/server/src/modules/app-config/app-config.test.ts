import { endpoints } from "@aquapilot/contract";
import { afterEach, expect, it } from "vitest";
import { call, describeEndpoint } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";

describeEndpoint(endpoints.appConfigSetting, "spec §1, §7", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("answers the defaults without a token: 114, Tianditu, empty keys, the seeded policy articles, nulls", async () => {
    t = await createTestApp();
    const res = await call(t, endpoints.appConfigSetting, { lang: null });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body).toMatchObject({
      success: true,
      result: {
        customerServicePhone: "114",
        mapType: 4,
        mapKeys: { amap: "", baidu: "", tencent: "", tianditu: "" },
        privacyPolicyArticleId: "privacy-policy",
        userAgreementArticleId: "user-agreement",
        androidLatestVersion: null,
        iosLatestVersion: null,
        androidDownloadUrl: null,
        iosDownloadUrl: null,
        webVersion: null,
      },
    });
  });

  it("answers what the environment configures", async () => {
    t = await createTestApp({
      env: {
        MAP_TYPE: "1",
        MAP_KEY_AMAP: "amap-key",
        MAP_KEY_TIANDITU: "tdt-key",
        ANDROID_LATEST_VERSION: "1.4.0",
        IOS_LATEST_VERSION: "1.3.9",
        ANDROID_DOWNLOAD_URL: "https://example.com/app.apk",
        WEB_VERSION: "2025.05.01",
        PRIVACY_POLICY_ARTICLE_ID: "privacy",
      },
    });
    const { result } = await call(t, endpoints.appConfigSetting, { lang: null });
    expect(result).toMatchObject({
      mapType: 1,
      mapKeys: { amap: "amap-key", baidu: "", tencent: "", tianditu: "tdt-key" },
      androidLatestVersion: "1.4.0",
      iosLatestVersion: "1.3.9",
      androidDownloadUrl: "https://example.com/app.apk",
      iosDownloadUrl: null,
      webVersion: "2025.05.01",
      privacyPolicyArticleId: "privacy",
    });
  });

  it("refuses a download URL that is not a URL at start-up", async () => {
    await expect(createTestApp({ env: { IOS_DOWNLOAD_URL: "not a url" } })).rejects.toThrow(/IOS_DOWNLOAD_URL/);
  });
});
