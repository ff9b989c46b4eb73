import { Button } from "antd-mobile";
import { AppstoreOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { navigateTo, PATHS, type RouteName } from "../navigation/index.js";
import { PageShell } from "./page-shell.js";

/** Placeholder for routes of spec §2 that are not built yet: the top bar titled with the route name and a note. */
export function NotBuiltPage({ name }: { name: RouteName }) {
  const { t } = useTranslation();
  return (
    <PageShell title={t(`routes.${name}`)} testId="not-built">
      <div className="state-block">
        <div className="state-block__icon">
          <AppstoreOutline />
        </div>
        <div className="state-block__title" data-testid="not-built-text">
          {t("common.notBuilt")}
        </div>
        <div className="state-block__text">{t("common.notBuiltHint")}</div>
        <Button color="primary" fill="outline" shape="rounded" onClick={() => navigateTo(PATHS.Home, null, { replace: true })}>
          {t("common.backHome")}
        </Button>
      </div>
    </PageShell>
  );
}
