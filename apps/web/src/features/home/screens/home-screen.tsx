import { LIMITS, RealtimeChannelState, type TFamilyDashboard, type TFamilyDevice } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { Badge, Button, Skeleton } from "antd-mobile";
import {
  AddCircleOutline,
  AddOutline,
  BellOutline,
  DownOutline,
  EditSOutline,
  ScanningOutline,
  SoundOutline,
  UserAddOutline,
} from "antd-mobile-icons";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevealedCount } from "../../../first-paint/reveal.ts";
import { firstScreenDrawn } from "../../../first-paint/snapshot.ts";
import { Staged } from "../../../first-paint/staged.tsx";
import { ApiError } from "../../../shared/api/errors.ts";
import { useFamilies } from "../../../shared/api/families.ts";
import { useFamilyDevices } from "../../../shared/api/family-devices.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { useDeviceChanges, usePhoneLink } from "../../../shared/realtime/index.ts";
import { badgeText, useUnreadMessageCount } from "../../../shared/realtime/unread.ts";
import { classifyScannedCode, scanQrCode } from "../../../shared/scan/index.tsx";
import { getItem, getUserFamily, setItem, setUserFamily } from "../../../shared/storage/index.ts";
import { openWithBack } from "../../../shared/ui/back-stack.ts";
import { useBackClose } from "../../../shared/ui/overlay.tsx";
import { PullToRefresh } from "../../../shared/ui/pull-to-refresh.tsx";
import { StateBlock } from "../../../shared/ui/state-block.tsx";
import { toast } from "../../../shared/ui/toast.ts";
import { dashboardKey, useDashboard } from "../api/get-dashboard.ts";
import { DeviceCard } from "../components/device-card.tsx";
import { selectHomeFamily, shouldShowNoFamily } from "../family-selection.ts";
import { useHomeSnapshot } from "../use-home-snapshot.ts";
import { useLiveDashboardUpdates } from "../use-live-dashboard.ts";
import "../home.css";
import { useVolume } from "../../../shared/units/volume.ts";

/** The family sheet comes with the first tap (Home's first screen ships without antd-mobile's popups). */
const loadDialogs = () => import("../../../shared/ui/dialogs.tsx");
/** The push switches sheet, loaded on its first opening (off Home's first screen). */
const PushSwitchSheet = lazy(() =>
  import("../../../shared/auth/push-switch-sheet.tsx").then((m) => ({ default: m.PushSwitchSheet })),
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The messages button of Home's header with the unread count (spec §2): its own component, so a new count (hub 2, the
 * unread call) draws only this button, not the whole screen (less main-thread time blocking input).
 */
function MessagesBell() {
  const { t } = useTranslation();
  const unread = useUnreadMessageCount();
  return (
    <button
      type="button"
      aria-label={t("home.messages")}
      onClick={() => navigateTo(PATHS.MessageDetails)}
      data-testid="home-messages"
      data-unread={unread.data ?? 0}
    >
      <Badge
        content={badgeText(unread.data)}
        className="home__bell-badge"
        data-testid="home-messages-badge"
        data-count={unread.data ?? 0}
      >
        <BellOutline />
      </Badge>
    </button>
  );
}

/**
 * Home's device cards, each with its figures from the family's dashboard (spec §7 dashboard; absent when it lacks the
 * device). The first card shows at once, the others one per task (a long list's first render blocks input); the
 * count lives here, so each step draws the list, not the whole screen.
 */
function DeviceList({
  devices,
  dashboard,
  onOpen,
}: {
  devices: TFamilyDevice[];
  dashboard: TFamilyDashboard | undefined;
  onOpen: (device: TFamilyDevice) => void;
}) {
  const revealed = useRevealedCount(devices.length);
  // Drawn beneath the last Home's snapshot, the live Home replaces it once every card is in (first-paint/snapshot.ts).
  useEffect(() => {
    if (revealed >= devices.length) firstScreenDrawn();
  }, [revealed, devices.length]);
  return (
    <div className="device-list" data-testid="device-list">
      {devices.slice(0, revealed).map((d) => (
        <DeviceCard
          key={d.id}
          device={d}
          figures={dashboard?.devices.find((x) => x.deviceId === d.id)}
          onOpen={onOpen}
        />
      ))}
    </div>
  );
}

/**
 * Keeps the shown family's device list live through hub 1 (spec §7; useDeviceChanges) and shows the channel's state
 * as Home's "live" chip. Its own component, so the channel's state changes draw only the chip.
 */
function LiveChip({ familyId }: { familyId: string | undefined }) {
  const { t } = useTranslation();
  const channel = useDeviceChanges(familyId);
  const link = usePhoneLink();
  // "Live" only while the phone's link is up: a connected hub on a phone without network is not live.
  const live = channel === RealtimeChannelState.Connected && link.state === "connected";
  return (
    <span
      className={`live-chip ${live ? "live-chip--on" : ""}`}
      data-testid="realtime-state"
      data-state={channel}
      data-live={live ? "true" : "false"}
    >
      <span className="live-chip__dot" />
      {live ? t("home.live") : t("home.connecting")}
    </span>
  );
}

/**
 * The household's water used today at the top of Home, from its live dashboard: its own component, so a
 * live message draws this figure, not the whole screen.
 */
function HomeTotal({ familyId }: { familyId: string | undefined }) {
  const { t } = useTranslation();
  const { volume } = useVolume();
  const dashboard = useDashboard(familyId);
  return (
    <div
      className="home__total"
      data-testid="home-water-today"
      data-value={dashboard.data?.waterTodayL ?? ""}
      data-day-start={dashboard.data?.dayStart ?? ""}
    >
      <span className="home__total-label">{t("dashboard.todayTotal")}</span>
      <span className="home__total-value">{dashboard.data ? volume(dashboard.data.waterTodayL) : "—"}</span>
    </div>
  );
}

/** How many devices the household has and how many are online, with the live chip (spec §2): its own component. */
function HomeSummary({ familyId }: { familyId: string | undefined }) {
  const { t } = useTranslation();
  const devices = useFamilyDevices(familyId);
  const list = devices.data ?? [];
  const onlineCount = list.filter((d) => d.online).length;
  return (
    <div className="home__summary">
      <span>{t("home.deviceCount", { count: list.length })}</span>
      <span className="home__summary-sep">·</span>
      <span>
        {t("home.online")} {onlineCount}
      </span>
      <LiveChip familyId={familyId} />
    </div>
  );
}

/**
 * Home's device section: skeletons until the devices and their dashboard are both in, the empty state (with "add
 * device" for the administrator), else the cards; keeps the snapshot the next start paints. Its own
 * component: a live message draws this section and the one changed card, not the header.
 */
function HomeDevices({
  familyId,
  families,
  isAdmin,
  onOpen,
  onAdd,
}: {
  familyId: string | undefined;
  families: { isPending: boolean; isSuccess: boolean };
  isAdmin: boolean;
  onOpen: (device: TFamilyDevice) => void;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const devices = useFamilyDevices(familyId);
  const dashboard = useDashboard(familyId);
  const list = devices.data ?? [];
  // The next start paints this Home before the app's code has loaded: kept once its cards show.
  useHomeSnapshot(
    families.isSuccess && devices.isSuccess && dashboard.isSuccess && list.length > 0,
    `${devices.dataUpdatedAt} ${dashboard.dataUpdatedAt} ${familyId}`,
  );
  // The cards show once the devices and their dashboard are both in (or the dashboard has failed: its figures show
  // "—"): a card drawn before its badges would grow when they arrive and push the next ones down (a layout
  // shift), and be drawn twice.
  const pending = families.isPending || Boolean(familyId && (devices.isPending || dashboard.isPending));
  // Drawn beneath the last Home's snapshot, an empty list is complete as it is (first-paint/snapshot.ts).
  const empty = !pending && list.length === 0;
  useEffect(() => {
    if (empty) firstScreenDrawn();
  }, [empty]);
  if (pending) {
    return (
      <div className="device-skeletons">
        {[0, 1].map((i) => (
          <div className="device-card device-card--skeleton" key={i}>
            <Skeleton animated className="device-card__image" />
            <div className="device-card__body">
              <Skeleton.Title animated />
              <Skeleton.Paragraph lineCount={2} animated />
            </div>
          </div>
        ))}
      </div>
    );
  }
  if (empty) {
    return (
      <StateBlock
        testId="home-empty"
        icon={<AddCircleOutline />}
        title={t("home.noDevices")}
        text={isAdmin ? t("home.noDevicesHint") : t("home.noDevicesMemberHint")}
        action={
          isAdmin ? (
            <Button color="primary" shape="rounded" onClick={onAdd} data-testid="home-add-device-empty">
              <AddOutline /> {t("home.addDevice")}
            </Button>
          ) : null
        }
      />
    );
  }
  return <DeviceList devices={list} dashboard={dashboard.data} onOpen={onOpen} />;
}

/**
 * Home tab (spec §2 /index/home), a dashboard: the selected family's water used today at the top
 * and its devices with salt, water used today, water left, next regeneration and badges, live through hub 1;
 * pull-down refresh
 * (333 ms delay); header actions add device, scan (a household share code → join it; a device pairing code →
 * add it on DeviceNetwork, prefilled; anything else → a toast), messages, invite members
 * (the administrator's QR code), push management, edit order. The family name opens the switcher (every household
 * with role and counts, the current one marked, and "manage households"); the choice is kept per user name in
 * userFamilyCache (spec §3). A family that is gone (left, deleted, removed) falls back to another; a user without
 * family goes to /NoFamily.
 */
export function HomeScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const userName = getItem("loginInfo")?.userName ?? "";
  const families = useFamilies();
  const [selectedId, setSelectedId] = useState(() => getUserFamily(userName));
  const family = useMemo(() => selectHomeFamily(families.data ?? [], selectedId), [families.data, selectedId]);
  // Only its failure draws the screen again (the sections below follow the devices and the dashboard themselves).
  const devices = useFamilyDevices(family?.id, { notifyOnChangeProps: ["error"] });
  useLiveDashboardUpdates(family?.id);
  const [pushOpen, setPushOpen] = useState(false);
  // The push sheet's code loads on its first opening and it stays mounted after (its closing animation).
  const [pushMounted, setPushMounted] = useState(false);
  // Its back entry exists from the tap on, before the sheet's code has loaded (a back at once closes it).
  useBackClose(pushOpen, () => setPushOpen(false));

  useEffect(() => {
    if (
      shouldShowNoFamily({ isSuccess: families.isSuccess, isFetching: families.isFetching, families: families.data })
    ) {
      navigateTo(PATHS.NoFamily, null, { replace: true });
    }
  }, [families.isSuccess, families.isFetching, families.data]);

  useEffect(() => {
    // Remember the choice only from a settled list, so a stale cache never overwrites it with a fallback.
    if (!family || families.isFetching) return;
    setUserFamily(userName, family.id);
    setItem("family", { id: family.id, name: family.name });
  }, [family, families.isFetching, userName]);

  // The shown family is gone (403/404 on its devices): reload the list so the selection falls back at once.
  const devicesGone =
    devices.error instanceof ApiError && (devices.error.status === 403 || devices.error.status === 404);
  useEffect(() => {
    if (devicesGone) void families.refetch();
  }, [devicesGone, families.refetch]);

  // The switcher is imperative (rendered outside the page); the back stack closes it when the page goes away.
  const switching = useRef(false);
  const switchFamily = () => {
    const list = families.data ?? [];
    if (list.length === 0 || switching.current) return; // a double tap opens one sheet
    switching.current = true;
    void openWithBack(
      loadDialogs,
      ({ showActionSheet }, closed) =>
        showActionSheet({
          extra: t("home.switchFamily"),
          cancelText: t("common.cancel"),
          closeOnAction: true,
          actions: [
            ...list.map((f) => ({
              key: f.id,
              text: (
                <span className="family-switch__item" data-testid="home-family-option" data-family-id={f.id}>
                  <span className="family-switch__name">{f.name}</span>
                  {f.id === family?.id ? (
                    <span className="family-switch__current">{t("familyHome.current")}</span>
                  ) : null}
                </span>
              ),
              description: [
                f.isAdmin ? t("family.admin") : t("family.member"),
                t("home.members", { count: f.memberCount }),
                t("home.deviceCount", { count: f.deviceCount }),
              ].join(" · "),
              bold: f.id === family?.id,
              onClick: () => setSelectedId(f.id),
            })),
            {
              key: "manage",
              text: <span data-testid="home-family-manage">{t("familyHome.manage")}</span>,
              onClick: () => navigateTo(PATHS.FamilyList),
            },
          ],
          // Its own close (an action, cancel, the mask); a back or leaving the page is seen by openWithBack.
          onClose: closed,
        }),
      () => {
        switching.current = false;
      },
    );
  };

  // Inviting and adding devices are the administrator's (spec §6): members are not offered them, which the server
  // would only refuse.
  const isAdmin = family?.isAdmin === true;
  const invite = () => {
    if (family) navigateTo(PATHS.FamilyQrcode, { familyId: family.id });
  };

  const scan = async () => {
    const text = await scanQrCode({
      title: t("home.scanTitle"),
      hint: t("home.scanHint"),
      cameraError: t("familyJoin.cameraError"),
      album: t("familyJoin.album"),
      noCodeInImage: t("familyJoin.noCodeInImage"),
      close: t("familyJoin.close"),
    });
    if (!text) return;
    const scanned = classifyScannedCode(text);
    // A household share code: FamilyList checks it, asks for confirmation and joins.
    if (scanned.kind === "family") navigateTo(PATHS.FamilyList, { joinCode: scanned.code });
    // A device pairing code: the add-device screen, prefilled, for the current household.
    else if (scanned.kind === "device") navigateTo(PATHS.DeviceNetwork, { familyId: family?.id, code: scanned.code });
    else toast(t("home.scanUnknown"));
  };

  const refresh = async () => {
    await sleep(LIMITS.refreshDelayMs);
    await Promise.all([
      families.refetch(),
      family ? devices.refetch() : undefined,
      family ? queryClient.refetchQueries({ queryKey: dashboardKey(family.id), exact: true }) : undefined,
    ]);
  };

  // One function for the screen's life, so the memoised cards do not render again with the header.
  const openDevice = useCallback((device: TFamilyDevice) => {
    setItem("device", { id: device.id, name: device.name, mac: device.mac });
    navigateTo(PATHS.Device, { deviceId: device.id, familyId: device.familyId });
  }, []);
  const addDevice = () => navigateTo(PATHS.DeviceNetwork, { familyId: family?.id });

  return (
    <div className="home" data-testid="home-screen">
      <header className="home__hero">
        <div className="home__bar">
          {/* The household's name is the screen's level-one heading; the button in it switches households. */}
          <h1 className="home__heading">
            <button
              type="button"
              className="home__family"
              onClick={switchFamily}
              onPointerDown={() => void loadDialogs().catch(() => {})}
              data-testid="home-family"
            >
              <span className="home__family-name">{family?.name ?? t("home.myHome")}</span>
              {(families.data?.length ?? 0) > 0 ? <DownOutline /> : null}
            </button>
          </h1>
          <div className="home__actions">
            <button type="button" aria-label={t("home.scan")} onClick={scan} data-testid="home-scan">
              <ScanningOutline />
            </button>
            {isAdmin ? (
              <button type="button" aria-label={t("home.addDevice")} onClick={addDevice} data-testid="home-add-device">
                <AddCircleOutline />
              </button>
            ) : null}
            <MessagesBell />
          </div>
        </div>
        <Staged>
          <HomeTotal familyId={family?.id} />
          <HomeSummary familyId={family?.id} />
          <div className="home__quick">
            {isAdmin ? (
              <button type="button" onClick={invite} data-testid="home-invite">
                <span className="home__quick-icon">
                  <UserAddOutline />
                </span>
                {t("home.inviteMembers")}
              </button>
            ) : null}
            <button
              type="button"
              onClick={() => {
                setPushMounted(true);
                setPushOpen(true);
              }}
              data-testid="home-push"
            >
              <span className="home__quick-icon">
                <SoundOutline />
              </span>
              {t("home.pushManagement")}
            </button>
            <button
              type="button"
              onClick={() => navigateTo(PATHS.DeviceSort, { familyId: family?.id })}
              data-testid="home-edit"
            >
              <span className="home__quick-icon">
                <EditSOutline />
              </span>
              {t("home.edit")}
            </button>
          </div>
        </Staged>
      </header>

      <Staged>
        <PullToRefresh onRefresh={refresh}>
          <section className="home__list">
            <div className="section-title">{t("home.devices")}</div>
            <HomeDevices
              familyId={family?.id}
              families={families}
              isAdmin={isAdmin}
              onOpen={openDevice}
              onAdd={addDevice}
            />
          </section>
        </PullToRefresh>
      </Staged>
      {pushMounted ? (
        <Suspense fallback={null}>
          <PushSwitchSheet visible={pushOpen} onClose={() => setPushOpen(false)} backByCaller />
        </Suspense>
      ) : null}
    </div>
  );
}
