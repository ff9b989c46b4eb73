import { Button } from "antd-mobile";
import { AddOutline, TeamOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { navigateTo, PATHS } from "../../../shared/navigation/index.js";
import { PageShell, StateBlock } from "../../../shared/ui/index.js";
import { JoinFamilyPanel } from "../components/join-family.js";
import "../family.css";

/**
 * NoFamily (spec §2 /NoFamily): shown when the user has no family; offers to create one (/FamilyCreate, which then
 * makes it the home family and offers to add a device to it now or later) or to join one by scanning or pasting a
 * share code.
 */
export function NoFamilyScreen() {
  const { t } = useTranslation();
  return (
    <PageShell title={t("routes.NoFamily")} back={false} testId="no-family-screen" className="family-page">
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
    </PageShell>
  );
}
