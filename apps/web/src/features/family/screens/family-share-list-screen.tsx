import { LIMITS, type TFamilyShare } from "@aquapilot/contract/wire";
import { Button, InfiniteScroll, Skeleton, Tag } from "antd-mobile";
import { LinkOutline } from "antd-mobile-icons";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { confirmDialog, PageShell, pushBackHandler, StateBlock, showDialog, toast } from "../../../shared/ui/index.ts";
import { useMyFamilyShares } from "../api/get-my-family-shares.ts";
import { useRevokeShareCode } from "../api/revoke-share-code.ts";
import { QrImage } from "../components/qr-image.tsx";
import { formatDateTime, shareStatus } from "../format.ts";
import "../family.css";
import { PullToRefresh } from "../../../shared/ui/pull-to-refresh.tsx";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * FamilyShareList (spec §2 /FamilyShareList, "my shares" of the My tab): the share codes the caller created, newest
 * first, each with its household, status (valid / expired / revoked), creation and expiry times and how many joined.
 * A valid code can be shown again as a QR code or revoked. Pull-down refresh and load on scroll (spec §4).
 */
export function FamilyShareListScreen() {
  const { t } = useTranslation();
  const shares = useMyFamilyShares();
  const revoke = useRevokeShareCode();
  const items = useMemo(() => shares.data?.pages.flatMap((p) => p.items) ?? [], [shares.data]);

  const refresh = async () => {
    await sleep(LIMITS.refreshDelayMs);
    await shares.refetch();
  };

  const showQr = (share: TFamilyShare) => {
    if (!share.code) return;
    let removeBack = () => {};
    const handler = showDialog({
      title: share.familyName,
      content: <QrImage code={share.code} testId="family-share-qr-image" className="qr-image--dialog" />,
      closeOnMaskClick: true,
      closeOnAction: true,
      actions: [{ key: "close", text: t("familyJoin.close") }],
      onClose: () => removeBack(),
    });
    removeBack = pushBackHandler(() => handler.close());
  };

  const askRevoke = async (share: TFamilyShare) => {
    const ok = await confirmDialog({
      title: t("familyShare.revokeConfirmTitle"),
      content: t("familyShare.revokeConfirm"),
      confirmText: t("familyShare.revoke"),
      danger: true,
    });
    if (!ok) return;
    try {
      await revoke.mutateAsync(share.id);
      toast(t("familyShare.revokedToast"));
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  return (
    <PageShell title={t("routes.FamilyShareList")} testId="family-share-list-screen" className="family-page">
      <PullToRefresh onRefresh={refresh}>
        <div className="share-list" data-testid="family-share-list">
          {shares.isPending ? (
            [0, 1].map((i) => (
              <div className="share-card" key={i}>
                <Skeleton.Title animated />
                <Skeleton.Paragraph lineCount={2} animated />
              </div>
            ))
          ) : items.length === 0 ? (
            <StateBlock
              testId="family-share-empty"
              icon={<LinkOutline />}
              title={t("familyShare.empty")}
              text={t("familyShare.emptyHint")}
            />
          ) : (
            items.map((s) => <ShareCard key={s.id} share={s} onShow={() => showQr(s)} onRevoke={() => askRevoke(s)} />)
          )}
        </div>
        {items.length > 0 ? (
          <InfiniteScroll
            loadMore={async () => {
              await shares.fetchNextPage();
            }}
            hasMore={shares.hasNextPage}
            threshold={LIMITS.loadMoreOffsetPx}
          >
            {shares.hasNextPage ? t("family.loadingMore") : <span className="list-end">{t("familyShare.noMore")}</span>}
          </InfiniteScroll>
        ) : null}
      </PullToRefresh>
    </PageShell>
  );
}

/** One share code: household, status tag, times, join count and, while valid, "show QR code" and "revoke". */
function ShareCard(props: { share: TFamilyShare; onShow: () => void; onRevoke: () => void }) {
  const { share, onShow, onRevoke } = props;
  const { t } = useTranslation();
  const status = shareStatus(share);
  const color = status === "valid" ? "success" : status === "revoked" ? "danger" : "default";
  return (
    <div className={`share-card share-card--${status}`} data-testid="family-share-item" data-status={status}>
      <div className="share-card__top">
        <span className="share-card__name">{share.familyName}</span>
        <Tag color={color} fill="outline" round className="family-tag" data-testid="family-share-status">
          {t(`familyShare.${status}`)}
        </Tag>
      </div>
      <div className="share-card__meta">{t("familyShare.createdAt", { time: formatDateTime(share.createdAt) })}</div>
      <div className="share-card__meta">{t("familyShare.expiresAt", { time: formatDateTime(share.expiresAt) })}</div>
      <div className="share-card__meta">{t("familyShare.joinCount", { count: share.joinCount })}</div>
      {status === "valid" && share.code ? (
        <div className="share-card__actions">
          <Button
            size="small"
            shape="rounded"
            color="primary"
            fill="outline"
            onClick={onShow}
            data-testid="family-share-show"
          >
            {t("familyShare.showQr")}
          </Button>
          <Button
            size="small"
            shape="rounded"
            className="danger-button"
            onClick={onRevoke}
            data-testid="family-share-revoke"
          >
            {t("familyShare.revoke")}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
