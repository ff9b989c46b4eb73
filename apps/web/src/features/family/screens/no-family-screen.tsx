import { Button } from "antd-mobile";
import { AddOutline, TeamOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { navigateTo, PATHS } from "../../../shared/navigation/index.js";
import { PageShell, StateBlock } from "../../../shared/ui/index.js";

/** NoFamily (spec §2 /NoFamily): shown when the user has no family; offers to create one (/FamilyCreate). */
export function NoFamilyScreen() {
  const { t } = useTranslation();
  return (
    <PageShell title={t("routes.NoFamily")} back={false} testId="no-family-screen">
      <StateBlock
        icon={<TeamOutline />}
        title={t("noFamily.title")}
        text={t("noFamily.text")}
        action={
          <Button
            color="primary"
            shape="rounded"
            size="large"
            onClick={() => navigateTo(PATHS.FamilyCreate)}
            data-testid="no-family-create"
          >
            <AddOutline /> {t("noFamily.create")}
          </Button>
        }
      />
    </PageShell>
  );
}
