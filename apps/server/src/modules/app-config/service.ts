import type { TAppConfigSetting } from "@aquapilot/contract";
import type { AppConfig } from "../../config.ts";
import { PRIVACY_POLICY_ARTICLE_ID, USER_AGREEMENT_ARTICLE_ID } from "../article/index.ts";

/**
 * The app configuration every client reads at start (spec §1 customer service 114 and map type codes; §7
 * app-config-setting and the "App-version endpoint"), from the environment (config.ts): CUSTOMER_SERVICE_PHONE,
 * MAP_TYPE, MAP_KEY_AMAP / _BAIDU / _TENCENT / _TIANDITU (empty strings when unset), PRIVACY_POLICY_ARTICLE_ID and
 * USER_AGREEMENT_ARTICLE_ID (default: the seeded "privacy-policy" / "user-agreement" articles), ANDROID_LATEST_VERSION,
 * IOS_LATEST_VERSION, ANDROID_DOWNLOAD_URL, IOS_DOWNLOAD_URL, WEB_VERSION (null when unset).
 */
export function appConfigSetting(config: AppConfig): TAppConfigSetting {
  return {
    customerServicePhone: config.CUSTOMER_SERVICE_PHONE,
    mapType: config.MAP_TYPE,
    mapKeys: {
      amap: config.MAP_KEY_AMAP,
      baidu: config.MAP_KEY_BAIDU,
      tencent: config.MAP_KEY_TENCENT,
      tianditu: config.MAP_KEY_TIANDITU,
    },
    privacyPolicyArticleId: config.PRIVACY_POLICY_ARTICLE_ID ?? PRIVACY_POLICY_ARTICLE_ID,
    userAgreementArticleId: config.USER_AGREEMENT_ARTICLE_ID ?? USER_AGREEMENT_ARTICLE_ID,
    androidLatestVersion: config.ANDROID_LATEST_VERSION ?? null,
    iosLatestVersion: config.IOS_LATEST_VERSION ?? null,
    androidDownloadUrl: config.ANDROID_DOWNLOAD_URL ?? null,
    iosDownloadUrl: config.IOS_DOWNLOAD_URL ?? null,
    webVersion: config.WEB_VERSION ?? null,
  };
}
