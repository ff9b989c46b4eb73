import { Skeleton } from "antd-mobile";
import { ExclamationCircleOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../shared/api/errors.ts";
import { useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell, StateBlock } from "../../../shared/ui/index.ts";
import { useDropWhenWithdrawn } from "../api/delete-after-sale.ts";
import { useAfterSale } from "../api/get-after-sale.ts";
import { AfterSaleForm } from "../components/after-sale-form.tsx";
import { AfterSaleView } from "../components/after-sale-view.tsx";
import { DESCRIPTION_MAX } from "../rules.ts";
import "../after-sale.css";

/**
 * Navigation params of AfterSaleCreate: `id` edits (or, once handled, shows) a request; `deviceId` preselects one;
 * `description` and `attachDiagnostics` pre-fill a new request (the fault list's "request service").
 */
export interface AfterSaleCreateParams {
  id?: string;
  deviceId?: string;
  description?: string;
  attachDiagnostics?: boolean;
}

/**
 * /AfterSaleCreate (spec §2 Other): a new after-sales request — the device (of any of the caller's
 * households), a description, up to 6 photos uploaded one by one, an optional contact phone and the owner's consent to
 * attach the device's diagnostics (recent events, 30 days of usage, firmware version). With `{id}` the same form
 * edits the request while it is unhandled (save or withdraw); a handled request shows read-only with the service
 * team's reply.
 */
export function AfterSaleCreateScreen() {
  const { id, deviceId, description, attachDiagnostics } = useRouteParams<AfterSaleCreateParams>();
  return id ? (
    <AfterSaleExisting id={id} />
  ) : (
    <AfterSaleForm
      initialDeviceId={deviceId ?? null}
      initialDescription={typeof description === "string" ? description.slice(0, DESCRIPTION_MAX) : ""}
      initialDiagnostics={attachDiagnostics === true}
    />
  );
}

/**
 * Loads the request of `{id}` and shows the edit form (unhandled) or the read-only view (handled); a skeleton while it
 * loads; "not found" when the server answers 404 or 403, else "request failed".
 */
function AfterSaleExisting({ id }: { id: string }) {
  const { t } = useTranslation();
  const request = useAfterSale(id);
  useDropWhenWithdrawn(id);
  if (request.isPending) {
    return (
      <PageShell title={t("afterSale.editTitle")} testId="after-sale-create-screen">
        <div className="after-sale-card">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={4} animated />
        </div>
      </PageShell>
    );
  }
  if (!request.data) {
    const gone = request.error instanceof ApiError && (request.error.status === 404 || request.error.status === 403);
    return (
      <PageShell title={t("afterSale.editTitle")} testId="after-sale-create-screen">
        <StateBlock
          testId="after-sale-error"
          icon={<ExclamationCircleOutline />}
          title={gone ? t("afterSale.notFound") : t("errors.requestFailed")}
        />
      </PageShell>
    );
  }
  return request.data.handled ? <AfterSaleView request={request.data} /> : <AfterSaleForm existing={request.data} />;
}
