import type { TDiagnostics } from "@aquapilot/contract/wire";
import { useTranslation } from "react-i18next";
import { formatDate } from "../../../shared/ui/index.ts";

/** What an attached diagnostics snapshot holds, in one line each (test id `after-sale-diagnostics-summary`). */
export function DiagnosticsSummary({ diagnostics }: { diagnostics: TDiagnostics }) {
  const { t } = useTranslation();
  const collected = new Date(diagnostics.collectedTime);
  return (
    <ul className="diagnostics-summary" data-testid="after-sale-diagnostics-summary">
      <li>
        {t("afterSale.diagnostics.collected", {
          time: Number.isNaN(collected.getTime()) ? "—" : formatDate(collected, "yyyy-MM-dd HH:mm"),
        })}
      </li>
      <li>{t("afterSale.diagnostics.firmware", { version: diagnostics.firmwareVersion ?? "—" })}</li>
      <li>{t("afterSale.diagnostics.events", { count: diagnostics.events.length })}</li>
      <li>{t("afterSale.diagnostics.usage", { count: diagnostics.dailyUsage.length })}</li>
    </ul>
  );
}
