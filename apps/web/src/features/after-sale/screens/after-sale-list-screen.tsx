import type { TAfterSale } from "@aquapilot/contract/wire";
import { Button, Tabs, Tag } from "antd-mobile";
import { AddOutline, PictureOutline, RightOutline } from "antd-mobile-icons";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { formatDate, PageShell, StateBlock } from "../../../shared/ui/index.ts";
import { PagedList, type PageRequest } from "../../../shared/ui/paged-list.tsx";
import { getAfterSalePage } from "../api/get-after-sale-list.ts";
import { afterSaleKeys } from "../api/keys.ts";
import "../after-sale.css";

/** Navigation params of AfterSaleList: `tab` — which tab shows first (default "unhandled"). */
export interface AfterSaleListParams {
  tab?: "unhandled" | "handled";
}

const TABS = ["unhandled", "handled"] as const;
const itemKey = (r: TAfterSale) => r.id;

/** The tab last shown, so coming back from a request shows the same tab (memory only). */
let lastTab: (typeof TABS)[number] = "unhandled";

/**
 * /AfterSaleList (spec §2 Other; §3 "After-sales request: device, description, handled or unhandled"): tabs
 * unhandled / handled, each the paged list of spec §4; a row shows the device, the description and the status, and
 * opens AfterSaleCreate with `{id}` (edit while unhandled, read-only once handled). "New request" in the footer.
 */
export function AfterSaleListScreen() {
  const { t } = useTranslation();
  const params = useRouteParams<AfterSaleListParams>();
  const [tab, setTabState] = useState<(typeof TABS)[number]>(
    params.tab === "handled" || params.tab === "unhandled" ? params.tab : lastTab,
  );
  const setTab = (next: (typeof TABS)[number]) => {
    lastTab = next;
    setTabState(next);
  };
  const handled = tab === "handled";
  const fetchPage = useCallback(
    (page: PageRequest, signal?: AbortSignal) => getAfterSalePage(handled, page, signal),
    [handled],
  );

  return (
    <PageShell
      title={t("afterSale.title")}
      testId="after-sale-list-screen"
      className="after-sale-page"
      footer={
        <Button
          block
          shape="rounded"
          color="primary"
          onClick={() => navigateTo(PATHS.AfterSaleCreate)}
          data-testid="after-sale-new"
        >
          <AddOutline /> {t("afterSale.new")}
        </Button>
      }
    >
      <div className="after-sale-tabs">
        <Tabs activeKey={tab} onChange={(key) => setTab(key as (typeof TABS)[number])} stretch>
          {TABS.map((key) => (
            <Tabs.Tab
              key={key}
              title={
                <span data-testid={`after-sale-tab-${key}`} data-active={key === tab}>
                  {t(`afterSale.status.${key}`)}
                </span>
              }
            />
          ))}
        </Tabs>
      </div>
      <PagedList
        key={tab}
        queryKey={afterSaleKeys.list(handled)}
        fetchPage={fetchPage}
        itemKey={itemKey}
        testId="after-sale-list"
        renderItem={(r) => <AfterSaleRow key={r.id} request={r} />}
        empty={
          <StateBlock
            icon={<PictureOutline />}
            title={handled ? t("afterSale.emptyHandled") : t("afterSale.emptyUnhandled")}
            text={handled ? undefined : t("afterSale.emptyHint")}
          />
        }
      />
    </PageShell>
  );
}

/** One request in the list (test id `after-sale-row`, data-id, data-handled). */
function AfterSaleRow({ request }: { request: TAfterSale }) {
  const { t } = useTranslation();
  const created = new Date(request.creationTime);
  return (
    <button
      type="button"
      className="after-sale-row"
      onClick={() => navigateTo(PATHS.AfterSaleCreate, { id: request.id })}
      data-testid="after-sale-row"
      data-id={request.id}
      data-handled={request.handled}
    >
      <span className="after-sale-row__top">
        <span className="after-sale-row__device" data-testid="after-sale-row-device">
          {request.deviceName}
        </span>
        <Tag
          round
          fill="outline"
          color={request.handled ? "success" : "warning"}
          className="after-sale-row__status"
          data-testid="after-sale-row-status"
        >
          {request.handled ? t("afterSale.status.handled") : t("afterSale.status.unhandled")}
        </Tag>
      </span>
      <span className="after-sale-row__description" data-testid="after-sale-row-description">
        {request.description}
      </span>
      <span className="after-sale-row__meta">
        <span>{Number.isNaN(created.getTime()) ? "" : formatDate(created, "yyyy-MM-dd HH:mm")}</span>
        {request.photos.length > 0 ? (
          <span className="after-sale-row__photos">
            <PictureOutline /> {request.photos.length}
          </span>
        ) : null}
        <RightOutline className="after-sale-row__arrow" />
      </span>
    </button>
  );
}
