import { LIMITS, type TFamily } from "@aquapilot/contract/wire";
import { Button, InfiniteScroll, Skeleton, Tag } from "antd-mobile";
import { AddOutline, RightOutline, TeamOutline } from "antd-mobile-icons";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell, StateBlock, useBackClose } from "../../../shared/ui/index.ts";
import { useFamilyList } from "../api/get-family-list.ts";
import { FamilyAvatar } from "../components/family-avatar.tsx";
import { JoinFamilyPanel, useJoinFamily } from "../components/join-family.tsx";
import { homeFamilyId, markedHomeFamily } from "../home-family.ts";
import "../family.css";
import { Popup } from "../../../shared/ui/popup.tsx";
import { PullToRefresh } from "../../../shared/ui/pull-to-refresh.tsx";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Navigation params of FamilyList: `joinCode` — a scanned share code to join at once (from the home tab's scan);
 * `shareCode` — a share code from a link (the shells' `aquapilot://join/<code>`): the join panel opens with
 * it filled in, and the owner joins with "Join".
 */
export interface FamilyListParams {
  joinCode?: string;
  shareCode?: string;
}

/**
 * FamilyList (spec §2 /FamilyList): the caller's households with the administrator badge, member and device counts
 * and the home family marked; tap → FamilyDetails. Pull-down refresh (333 ms), next page on scroll (150 px, §4).
 * "Create" in the top bar; "Join household" opens the scan / paste panel. A `joinCode` param starts joining; a
 * `shareCode` param opens the panel with the code filled in.
 */
export function FamilyListScreen() {
  const { t } = useTranslation();
  const { joinCode, shareCode } = useRouteParams<FamilyListParams>();
  const list = useFamilyList();
  const { join } = useJoinFamily();
  const linked = typeof shareCode === "string" ? shareCode.trim() : "";
  const [joinOpen, setJoinOpen] = useState(linked !== "");
  // The linked code fills the panel once; the panel opened later by "Join household" starts empty.
  const [prefill, setPrefill] = useState(linked);
  const started = useRef(false);
  const families = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const home = markedHomeFamily(families, homeFamilyId());

  useEffect(() => {
    if (!joinCode || started.current) return;
    started.current = true;
    // Drop the code from the URL first, so coming back to this page never asks again.
    navigateTo(PATHS.FamilyList, null, { replace: true });
    void join(joinCode);
  }, [joinCode, join]);

  // The code stays in the URL: a navigation now would close the panel it opens (open dialogs close before one), and
  // a join replaces this page by Home anyway.
  const closeJoin = () => {
    setJoinOpen(false);
    setPrefill("");
  };
  useBackClose(joinOpen, closeJoin);

  const refresh = async () => {
    await sleep(LIMITS.refreshDelayMs);
    await list.refetch();
  };

  return (
    <PageShell
      title={t("routes.FamilyList")}
      right={
        <span className="page__right-text" data-testid="family-list-create">
          <AddOutline /> {t("family.createShort")}
        </span>
      }
      onRight={() => navigateTo(PATHS.FamilyCreate)}
      testId="family-list-screen"
      className="family-page"
      footer={
        <Button
          block
          shape="rounded"
          color="primary"
          fill="outline"
          className="family-footer-button"
          onClick={() => setJoinOpen(true)}
          data-testid="family-list-join"
        >
          {t("family.join")}
        </Button>
      }
    >
      <PullToRefresh onRefresh={refresh}>
        <div className="family-list" data-testid="family-list">
          {list.isPending ? (
            [0, 1, 2].map((i) => (
              <div className="family-card family-card--skeleton" key={i}>
                <Skeleton animated className="family-card__skeleton-avatar" />
                <div className="family-card__body">
                  <Skeleton.Title animated />
                </div>
              </div>
            ))
          ) : families.length === 0 ? (
            <StateBlock
              testId="family-list-empty"
              icon={<TeamOutline />}
              title={t("family.empty")}
              text={t("family.emptyHint")}
              action={
                <Button color="primary" shape="rounded" onClick={() => navigateTo(PATHS.FamilyCreate)}>
                  <AddOutline /> {t("family.create")}
                </Button>
              }
            />
          ) : (
            families.map((f) => <FamilyCard key={f.id} family={f} isHome={f.id === home?.id} />)
          )}
        </div>
        {families.length > 0 ? (
          <InfiniteScroll
            loadMore={async () => {
              await list.fetchNextPage();
            }}
            hasMore={list.hasNextPage}
            threshold={LIMITS.loadMoreOffsetPx}
          >
            {list.hasNextPage ? t("family.loadingMore") : <span className="list-end">{t("family.noMore")}</span>}
          </InfiniteScroll>
        ) : null}
      </PullToRefresh>
      <Popup
        visible={joinOpen}
        onMaskClick={closeJoin}
        bodyClassName="sheet"
        destroyOnClose
        data-testid="family-join-sheet"
      >
        <div className="sheet__title">{t("familyJoin.title")}</div>
        <JoinFamilyPanel initialCode={prefill} onJoined={closeJoin} />
      </Popup>
    </PageShell>
  );
}

/** One household in the list. */
function FamilyCard({ family, isHome }: { family: TFamily; isHome: boolean }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="family-card"
      onClick={() => navigateTo(PATHS.FamilyDetails, { familyId: family.id })}
      data-testid="family-item"
      data-family-id={family.id}
      data-admin={family.isAdmin}
    >
      <FamilyAvatar name={family.name} avatar={family.avatar} />
      <span className="family-card__body">
        <span className="family-card__top">
          <span className="family-card__name">{family.name}</span>
          {isHome ? (
            <Tag color="primary" fill="solid" round className="family-tag" data-testid="family-item-home">
              {t("family.current")}
            </Tag>
          ) : null}
        </span>
        <span className="family-card__meta">
          <Tag
            color={family.isAdmin ? "warning" : "default"}
            fill="outline"
            round
            className="family-tag"
            data-testid="family-item-role"
          >
            {family.isAdmin ? t("family.admin") : t("family.member")}
          </Tag>
          <span data-testid="family-item-summary">
            {`${t("home.members", { count: family.memberCount })} · ${t("home.deviceCount", { count: family.deviceCount })}`}
          </span>
        </span>
        {family.address ? <span className="family-card__address">{family.address}</span> : null}
      </span>
      <RightOutline className="family-card__arrow" />
    </button>
  );
}
