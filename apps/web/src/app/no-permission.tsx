import { LockOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { PageShell } from "../shared/ui/page-shell.tsx";
import { StateBlock } from "../shared/ui/state-block.tsx";
import type { AppRoute } from "./routes.ts";

/** The page a route shows when the user lacks its permission (spec §6): rarely needed, so its own chunk. */
export function NoPermission({ route }: { route: AppRoute }) {
  const { t } = useTranslation();
  return (
    <PageShell title={t(`routes.${route.name}`)} testId="no-permission">
      <StateBlock icon={<LockOutline />} title={t("common.noPermission")} />
    </PageShell>
  );
}
