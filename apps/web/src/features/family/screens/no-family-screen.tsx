import { PERMISSIONS } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { Badge, Button } from "antd-mobile";
import { AddOutline, MessageOutline, RightOutline, TeamOutline } from "antd-mobile-icons";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useFamilies } from "../../../shared/api/families.ts";
import { logout } from "../../../shared/auth/logout.ts";
import { Permitted } from "../../../shared/auth/permitted.tsx";
import { switchLanguage } from "../../../shared/i18n/switch-language.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { badgeText, useUnreadMessageCount } from "../../../shared/realtime/unread.ts";
import { confirmDialog, PageShell, StateBlock } from "../../../shared/ui/index.ts";
import { LanguageSwitch } from "../../../shared/ui/language-switch.tsx";
import { JoinFamilyPanel } from "../components/join-family.tsx";
import "../family.css";

/**
 * NoFamily (spec §2 /NoFamily): shown when the user has no family; offers to create one (/FamilyCreate, which then
 * makes it the home family and offers to add a device to it now or later) or to join one by scanning or pasting a
 * share code. With no tab bar here, it also offers the language (told to the server too), the message centre with its
 * unread count (where the notice of a removal or a deleted household waits) and signing out.
 * Opened by someone who has a household after all (a link, a reload, a household joined on another phone), it goes
 * to Home in its place once the caller's freshly loaded household list says so.
 */
export function NoFamilyScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const families = useFamilies();
  // Someone removed from their last household lands here: the notice saying who did it is in the message centre.
  const unread = badgeText(useUnreadMessageCount().data);
  const hasFamily = families.isSuccess && !families.isFetching && (families.data?.length ?? 0) > 0;
  useEffect(() => {
    if (hasFamily) navigateTo(PATHS.Home, null, { replace: true });
  }, [hasFamily]);
  const askLogout = async () => {
    if (await confirmDialog({ content: t("my.logoutConfirm"), confirmText: t("my.logout"), danger: true })) {
      await logout(queryClient);
    }
  };
  return (
    <PageShell
      title={t("routes.NoFamily")}
      back={false}
      right={<LanguageSwitch tone="dark" choose={switchLanguage} />}
      testId="no-family-screen"
      className="family-page"
    >
      <StateBlock
        icon={<TeamOutline />}
        title={t("noFamily.title")}
        text={t("noFamily.text")}
        action={
          <Button
            color="primary"
            shape="rounded"
            size="large"
            onClick={() => navigateTo(PATHS.FamilyCreate, { from: "NoFamily" })}
            data-testid="no-family-create"
          >
            <AddOutline /> {t("noFamily.create")}
          </Button>
        }
      />
      <section className="no-family__join">
        <div className="no-family__join-title">{t("familyJoin.title")}</div>
        <JoinFamilyPanel />
      </section>
      <Permitted requirement={{ permission: PERMISSIONS.message }}>
        <button
          type="button"
          className="no-family__messages"
          onClick={() => navigateTo(PATHS.MessageDetails)}
          data-testid="no-family-messages"
        >
          <MessageOutline />
          <span className="no-family__messages-label">{t("ending.openMessages")}</span>
          {unread ? <Badge content={unread} /> : null}
          <RightOutline />
        </button>
      </Permitted>
      <Button block fill="none" className="no-family__logout" onClick={askLogout} data-testid="no-family-logout">
        {t("my.logout")}
      </Button>
    </PageShell>
  );
}
