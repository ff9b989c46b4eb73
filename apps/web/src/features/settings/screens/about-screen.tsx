import { LIMITS } from "@aquapilot/contract/wire";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { List } from "antd-mobile";
import { PhoneFill } from "antd-mobile-icons";
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { getAppConfigQueryOptions, useAppConfig } from "../../../shared/api/app-config.ts";
import { getNativeConfig, hasNativeBridge } from "../../../shared/bridge/index.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { BrandMark, PageShell } from "../../../shared/ui/index.ts";
import { ListItem } from "../../../shared/ui/list-item.tsx";
import { Toast } from "../../../shared/ui/toast.ts";
import { APP_VERSION, WEB_VERSION } from "../build-info.ts";
import { clearAppCaches } from "../clear-cache.ts";
import { offerAppUpdate } from "../components/app-update-watch.tsx";
import { openExternal } from "../open-external.ts";
import { checkWebVersion, fetchDeployedVersion } from "../web-version.ts";
import "../settings.css";

/**
 * About (spec §2 /About): app name, version (from the build), web version, the native shell's version when there is
 * one, the customer service phone (spec §1: 114) as a `tel:` link that dials (through the bridge's start intent
 * inside a shell), the privacy policy (/Article with the id from app-config-setting) and a check for updates.
 */
export function AboutScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const config = useAppConfig();
  const shell = useQuery({
    queryKey: ["native-config"],
    queryFn: getNativeConfig,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const phone = config.data?.customerServicePhone || LIMITS.customerServicePhone;

  const dial = (e: MouseEvent) => {
    if (!hasNativeBridge()) return; // the browser follows the tel: link itself
    e.preventDefault();
    openExternal(`tel:${phone}`);
  };

  const checkUpdates = async () => {
    if (await offerAppUpdate(() => queryClient.fetchQuery(getAppConfigQueryOptions()))) return;
    const outcome = await checkWebVersion({
      fetchVersion: () => fetchDeployedVersion(),
      clear: () => clearAppCaches(queryClient),
      reload: () => window.location.reload(),
    });
    if (outcome !== "reloaded") Toast.show({ content: t("about.latest") });
  };

  const article = (id: string | null | undefined) => (id ? () => navigateTo(PATHS.Article, { id }) : undefined);

  return (
    <PageShell title={t("routes.About")} testId="about-screen">
      <div className="about">
        <div className="about__brand">
          <BrandMark size="1.8rem" />
          <div className="about__name">{t("app.name")}</div>
          <div className="about__tagline">{t("app.tagline")}</div>
          <div className="about__version" data-testid="about-version">
            {t("about.versionShort", { version: APP_VERSION })}
          </div>
        </div>
        <List className="card-list" mode="card">
          <ListItem extra={<span data-testid="about-app-version">{APP_VERSION}</span>} arrowIcon={false}>
            {t("about.version")}
          </ListItem>
          <ListItem
            extra={
              <span className="about__mono" data-testid="about-web-version">
                {WEB_VERSION}
              </span>
            }
            arrowIcon={false}
          >
            {t("about.webVersion")}
          </ListItem>
          {shell.data?.appVersion ? (
            <ListItem extra={<span data-testid="about-shell-version">{shell.data.appVersion}</span>} arrowIcon={false}>
              {t("about.shellVersion")}
            </ListItem>
          ) : null}
          <ListItem onClick={checkUpdates} data-testid="about-check-update">
            {t("about.checkUpdate")}
          </ListItem>
        </List>
        <List className="card-list" mode="card">
          <ListItem
            onClick={article(config.data?.privacyPolicyArticleId)}
            disabled={!config.data?.privacyPolicyArticleId}
            data-testid="about-privacy"
          >
            {t("about.privacyPolicy")}
          </ListItem>
          <ListItem
            onClick={article(config.data?.userAgreementArticleId)}
            disabled={!config.data?.userAgreementArticleId}
            data-testid="about-agreement"
          >
            {t("about.userAgreement")}
          </ListItem>
        </List>
        <a className="about__phone" href={`tel:${phone}`} onClick={dial} data-testid="about-service-phone">
          <PhoneFill /> {t("about.servicePhone", { phone })}
        </a>
        <p className="about__copy">{t("about.copyright", { year: new Date().getFullYear() })}</p>
      </div>
    </PageShell>
  );
}
