import type { TAfterSale } from "@aquapilot/contract/wire";
import { Tag } from "antd-mobile";
import { MessageOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { imageUrl } from "../../../shared/api/api-host.ts";
import { formatDate, PageShell } from "../../../shared/ui/index.ts";
import type { PhotoItem } from "../rules.ts";
import { DiagnosticsSummary } from "./diagnostics-summary.tsx";
import { PhotoGrid } from "./photo-grid.tsx";

/**
 * A handled after-sales request, read-only (spec §2 Other: once handled it can no longer be edited): when it was
 * handled, the service team's reply (or "no reply"), the device, description, photos, contact phone and the attached
 * diagnostics. Test ids: `after-sale-view-screen`, `after-sale-status` (data-handled="true"), `after-sale-reply`,
 * `after-sale-device-name`, `after-sale-view-description`.
 */
export function AfterSaleView({ request }: { request: TAfterSale }) {
  const { t } = useTranslation();
  const photos: PhotoItem[] = request.photos.map((path, i) => ({
    key: `${i}`,
    preview: imageUrl(path) ?? path,
    path,
    status: "done",
  }));
  const handledTime = request.handledTime ? new Date(request.handledTime) : null;
  return (
    <PageShell title={t("afterSale.viewTitle")} testId="after-sale-view-screen" className="after-sale-page">
      <div className="after-sale-banner after-sale-banner--handled" data-testid="after-sale-status" data-handled="true">
        <Tag color="success" fill="outline" round>
          {t("afterSale.status.handled")}
        </Tag>
        {handledTime && !Number.isNaN(handledTime.getTime()) ? (
          <span>{formatDate(handledTime, "yyyy-MM-dd HH:mm")}</span>
        ) : null}
      </div>
      <section className="after-sale-card after-sale-reply" data-testid="after-sale-reply">
        <h2 className="after-sale-card__title">
          <MessageOutline /> {t("afterSale.reply")}
        </h2>
        <p>{request.reply || t("afterSale.noReply")}</p>
      </section>
      <section className="after-sale-card">
        <h2 className="after-sale-card__title">{t("afterSale.device")}</h2>
        <div className="after-sale-device-fixed" data-testid="after-sale-device-name">
          {request.deviceName}
        </div>
        <h2 className="after-sale-card__title">{t("afterSale.description")}</h2>
        <p className="after-sale-view__description" data-testid="after-sale-view-description">
          {request.description}
        </p>
        {photos.length > 0 ? <PhotoGrid photos={photos} readOnly /> : null}
        {request.contactPhone ? (
          <p className="after-sale-view__contact">
            {t("afterSale.contactPhone")}: {request.contactPhone}
          </p>
        ) : null}
      </section>
      {request.diagnostics ? (
        <section className="after-sale-card">
          <h2 className="after-sale-card__title">{t("afterSale.diagnostics.attached")}</h2>
          <DiagnosticsSummary diagnostics={request.diagnostics} />
        </section>
      ) : null}
    </PageShell>
  );
}
