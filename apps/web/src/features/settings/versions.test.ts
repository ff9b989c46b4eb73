import { describe, expect, it } from "vitest";
import { compareVersions, updateOffer } from "./versions.ts";

const config = {
  androidLatestVersion: "2.4.0",
  iosLatestVersion: "2.3.1",
  androidDownloadUrl: "https://example.com/android",
  iosDownloadUrl: "https://example.com/ios",
};

describe("app update dialog rule (spec §7 App-version endpoint)", () => {
  it("compares dotted versions numerically", () => {
    expect(compareVersions("2.10.0", "2.9.9")).toBe(1);
    expect(compareVersions("2.3", "2.3.0")).toBe(0);
    expect(compareVersions("v1.0.0", "1.0.1")).toBe(-1);
    expect(compareVersions("1.2.0-beta", "1.2.0")).toBe(0);
  });

  it("offers an update only to an older shell of the same platform", () => {
    expect(updateOffer({ appVersion: "2.3.1", platform: "android" }, config)).toEqual({
      latest: "2.4.0",
      downloadUrl: "https://example.com/android",
    });
    expect(updateOffer({ appVersion: "2.3.1", platform: "ios" }, config)).toBeNull();
    expect(updateOffer({ appVersion: "2.5.0", platform: "android" }, config)).toBeNull();
    expect(updateOffer({ appVersion: null, platform: null }, config)).toBeNull();
    expect(updateOffer({ appVersion: "1.0.0", platform: "ios" }, { ...config, iosLatestVersion: null })).toBeNull();
  });
});
