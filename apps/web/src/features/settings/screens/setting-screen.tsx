import { LANGUAGES } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { Button, List } from "antd-mobile";
import {
  AppstoreOutline,
  BellOutline,
  CheckOutline,
  DeleteOutline,
  FolderOutline,
  GlobalOutline,
  InformationCircleOutline,
  KeyOutline,
  LockOutline,
  MailOutline,
} from "antd-mobile-icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { logout } from "../../../shared/auth/logout.ts";
import { PushSwitchSheet } from "../../../shared/auth/push-switch-sheet.tsx";
import { currentLanguage } from "../../../shared/i18n/index.ts";
import { switchLanguage } from "../../../shared/i18n/switch-language.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { confirmDialog, PageShell } from "../../../shared/ui/index.ts";
import { ListItem } from "../../../shared/ui/list-item.tsx";
import { Toast } from "../../../shared/ui/toast.ts";
import { clearAppCaches } from "../clear-cache.ts";
import { UnitsSection } from "../components/units-section.tsx";
import "../settings.css";

/**
 * Setting (spec §2 /Setting): language (five, spec §1), the owner's units (volume and water hardness),
 * account security (change password, change phone or e-mail,
 * delete account), clear cache (through the bridge when present, else the app's own caches; the session and the
 * language stay), push management (the push switch sheet), About, and logout (the same as the My tab's, spec §4).
 */
export function SettingScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const lang = currentLanguage();
  const [pushOpen, setPushOpen] = useState(false);

  const clear = async () => {
    if (!(await confirmDialog({ content: t("settings.clearCacheConfirm") }))) return;
    await clearAppCaches(queryClient);
    Toast.show({ icon: "success", content: t("settings.cacheCleared") });
  };

  const askLogout = async () => {
    if (await confirmDialog({ content: t("my.logoutConfirm"), confirmText: t("my.logout"), danger: true })) {
      await logout(queryClient);
    }
  };

  return (
    <PageShell title={t("routes.Setting")} testId="setting-screen">
      <div className="settings">
        <div className="settings__title" id="settings-language-title">
          <GlobalOutline /> {t("settings.language")}
        </div>
        <div role="radiogroup" aria-labelledby="settings-language-title">
          <List className="card-list" mode="card">
            {LANGUAGES.map((l) => (
              <ListItem
                key={l}
                arrowIcon={false}
                onClick={() => l !== lang && void switchLanguage(l)}
                extra={l === lang ? <CheckOutline className="settings__check" /> : null}
                data-testid={`setting-language-${l}`}
                role="radio"
                aria-checked={l === lang}
              >
                {t(`language.${l}`)}
              </ListItem>
            ))}
          </List>
        </div>

        <UnitsSection />

        <div className="settings__title">
          <LockOutline /> {t("settings.accountSecurity")}
        </div>
        <List className="card-list" mode="card">
          <ListItem
            prefix={<KeyOutline className="settings__icon" />}
            onClick={() => navigateTo(PATHS.UpdatePassword)}
            data-testid="setting-password"
          >
            {t("routes.UpdatePassword")}
          </ListItem>
          <ListItem
            prefix={<MailOutline className="settings__icon" />}
            onClick={() => navigateTo(PATHS.UpdatePhoneEmail)}
            data-testid="setting-identity"
          >
            {t("routes.UpdatePhoneEmail")}
          </ListItem>
          <ListItem
            prefix={<DeleteOutline className="settings__icon settings__icon--danger" />}
            onClick={() => navigateTo(PATHS.DeleteAccount)}
            data-testid="setting-delete-account"
          >
            <span className="settings__danger">{t("routes.DeleteAccount")}</span>
          </ListItem>
        </List>

        <div className="settings__title">
          <AppstoreOutline /> {t("settings.general")}
        </div>
        <List className="card-list" mode="card">
          <ListItem
            prefix={<FolderOutline className="settings__icon" />}
            onClick={clear}
            extra={<span className="settings__muted">{t("settings.clearCacheHint")}</span>}
            data-testid="setting-clear-cache"
          >
            {t("settings.clearCache")}
          </ListItem>
          <ListItem
            prefix={<BellOutline className="settings__icon" />}
            onClick={() => setPushOpen(true)}
            data-testid="setting-push"
          >
            {t("home.pushManagement")}
          </ListItem>
          <ListItem
            prefix={<InformationCircleOutline className="settings__icon" />}
            onClick={() => navigateTo(PATHS.About)}
            data-testid="setting-about"
          >
            {t("routes.About")}
          </ListItem>
        </List>

        <div className="settings__logout">
          <Button
            block
            shape="rounded"
            size="large"
            className="my__logout"
            onClick={askLogout}
            data-testid="setting-logout"
          >
            {t("my.logout")}
          </Button>
        </div>
      </div>
      <PushSwitchSheet visible={pushOpen} onClose={() => setPushOpen(false)} />
    </PageShell>
  );
}
