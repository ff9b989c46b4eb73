import { Button } from "antd-mobile";
import { AppstoreOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { navigateTo, PATHS, type RouteName } from "../navigation/index.ts";
import { PageShell } from "./page-shell.tsx";
import { StateBlock } from "./state-block.tsx";

/** Placeholder for routes of spec §2 that are not built yet: the top bar titled with the route name and a note. */
export function NotBuiltPage({ name }: { name: RouteName }) {
  const { t } = useTranslation();
  return (
    <PageShell title={t(`routes.${name}`)} testId="not-built">
      <StateBlock
        testId="not-built-text"
        icon={<AppstoreOutline />}
        title={t("common.notBuilt")}
        text={t("common.notBuiltHint")}
        action={
          <Button
            color="primary"
            fill="outline"
            shape="rounded"
            onClick={() => navigateTo(PATHS.Home, null, { replace: true })}
          >
            {t("common.backHome")}
          </Button>
        }
      />
    </PageShell>
  );
}
