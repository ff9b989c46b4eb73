import { RealtimeChannelState } from "@aquapilot/contract/wire";
import { Button, Tag } from "antd-mobile";
import { ExclamationCircleOutline, MoreOutline, RightOutline } from "antd-mobile-icons";
import { memo, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FirstScreenDrawn, Staged } from "../../../first-paint/staged.tsx";
import { useFamilyDevices } from "../../../shared/api/family-devices.ts";
import { getOtaVersion } from "../../../shared/device/api/get-ota-version.ts";
import { useSaltStatus } from "../../../shared/device/api/get-salt-status.ts";
import { useStationDurations } from "../../../shared/device/api/get-station-durations.ts";
import { useLiveDevice, useNow } from "../../../shared/device/hooks.ts";
import type { LiveDevice } from "../../../shared/device/live-device.ts";
import { formatMoment } from "../../../shared/format/index.ts";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { useChannelState, usePhoneLink } from "../../../shared/realtime/index.ts";
import { DeviceImage } from "../../../shared/ui/device-image.tsx";
import { PageShell, StateBlock } from "../../../shared/ui/index.ts";
import { DeviceControls } from "../components/device-controls.tsx";
import { DeviceFrameScreen } from "../components/device-frame.tsx";
import { SaltGaugeCard } from "../components/salt-gauge-card.tsx";
import { StationCard } from "../components/station-card.tsx";
import { CyclesSection, StatsSection } from "../components/stats-section.tsx";
import { isClockDrifting, minutesAgo } from "../logic/live-values.ts";
import "../device.css";

/** Route params of /Device (spec §2). */
export interface DeviceParams {
  deviceId: string;
  familyId: string;
}

/**
 * The hero's "last reported N min ago" (spec §3) with its own once-a-second clock: the minute turns over on time and
 * only this line draws again (the screen's sections stay as they are between live messages).
 */
function LastReported({ reportedAt }: { reportedAt: string | null | undefined }) {
  const { t } = useTranslation();
  const ago = minutesAgo(reportedAt, useNow(1000));
  return (
    <div className="device-hero__time" data-testid="device-last-report" data-reported={reportedAt ?? ""}>
      {ago === null
        ? t("device.neverReported")
        : ago === 0
          ? t("device.lastReportedNow")
          : t("device.lastReported", { count: ago })}
    </div>
  );
}

/** An offline device's line under its name: when the cloud last heard it ("Offline · last heard 14:02"). */
function LastHeard({ heardAt }: { heardAt: string | null | undefined }) {
  const { t, i18n } = useTranslation();
  const time = formatMoment(heardAt, i18n.language, { timeOnlyToday: true });
  return (
    <div className="device-hero__time" data-testid="device-last-heard" data-heard={heardAt ?? ""}>
      {time ? t("device.lastHeard", { time }) : t("device.neverHeard")}
    </div>
  );
}

/**
 * Why the device's figures may be old, as a banner that opens the Faults troubleshooting card (docs/architecture.md
 * "What the phone shows"): the cloud refuses its reports ("Reports not accepted since 14:02"), or it is offline
 * ("The device is offline since 14:02"). Nothing while it is online and heard.
 */
function LinkProblem({ device, onOpen }: { device: LiveDevice; onOpen: () => void }) {
  const { t, i18n } = useTranslation();
  const refusedSince = device.reportsRefusedSince ?? null;
  if (!refusedSince && device.online) return null;
  const at = refusedSince ?? device.lastHeardAt ?? device.reportedAt ?? device.lastReportTime ?? null;
  const time = formatMoment(at, i18n.language, { timeOnlyToday: true }) ?? "—";
  return (
    <button
      type="button"
      className="device-banner device-banner--warning"
      onClick={onOpen}
      data-testid={refusedSince ? "device-reports-refused" : "device-offline"}
      data-since={at ?? ""}
    >
      <span>{refusedSince ? t("device.reportsRefused", { time }) : t("device.offlineBanner", { time })}</span>
      <RightOutline />
    </button>
  );
}

// The screen's sections, each drawn again only when its own props change: they read their own data.
const StationSection = memo(StationCard);
const ControlsSection = memo(DeviceControls);
const SaltSection = memo(SaltGaugeCard);
const Statistics = memo(StatsSection);
const Cycles = memo(CyclesSection);

/**
 * The hero's live chip (docs/architecture.md "What the phone shows"): "Live" only while the phone's link is up
 * (hub 1 connected, network on) and `deviceOk` (the device is online and its reports are accepted); "Connecting" while
 * the hub connects for a device that is fine; nothing when the device is not (its tag and banner say why). It reads
 * the channel's state itself, so a connection or reconnection redraws this chip only, not the screen.
 */
const LiveChip = memo(function LiveChip({ deviceOk }: { deviceOk: boolean }) {
  const { t } = useTranslation();
  const state = useChannelState();
  const link = usePhoneLink();
  if (!deviceOk) return null;
  const on = state === RealtimeChannelState.Connected && link.state === "connected";
  return (
    <span
      className={`device-hero__live device-hero__live--${on ? "on" : "off"}`}
      data-testid="device-channel"
      data-state={state}
      data-live={on ? "true" : "false"}
    >
      {on ? t("device.live") : t("device.connecting")}
    </span>
  );
});

/**
 * /Device (spec §2/§3): name, image, online state, "last reported N min ago", the live station with its
 * remaining time, water left and flow (hub 1), the clock-drift warning with one-tap sync, the §4 controls, and the
 * water-usage statistics. Each section (station, controls, salt, statistics, cycles) is memoised and reads its own
 * data, so an answer or a live message redraws the sections it changes, not the whole screen.
 */
export function DeviceScreen() {
  const { t } = useTranslation();
  const { deviceId = "", familyId } = useRouteParams<DeviceParams>();
  const live = useLiveDevice(deviceId, familyId);
  const durations = useStationDurations(deviceId);
  const family = useFamilyDevices(familyId);
  const [syncRequest, setSyncRequest] = useState(0);
  const salt = useSaltStatus(deviceId);
  const { setOtaProgress, setOtaOutcome, otaOutcome } = live;
  const [firmware, setFirmware] = useState<{ currentVersion: string | null; latestVersion: string | null } | null>(
    null,
  );
  // A firmware update already running when the screen opens blocks the controls too (spec §4); a failed last update
  // shows its reason.
  useEffect(() => {
    if (!deviceId) return;
    getOtaVersion(deviceId, false)
      .then((v) => {
        setFirmware({ currentVersion: v.currentVersion, latestVersion: v.latestVersion });
        if (v.updating) setOtaProgress(v.progress ?? 0);
        else if (v.otaStatus === "failed") setOtaOutcome({ ok: false, reason: v.otaError ?? null });
      })
      .catch(() => {});
  }, [deviceId, setOtaProgress, setOtaOutcome]);
  // When an update ends the versions are read again; after a successful one until the new version is reported (the
  // device's state report follows its last progress event), at most 5 times a second apart.
  useEffect(() => {
    if (!deviceId || !otaOutcome) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = (attempt: number) => {
      getOtaVersion(deviceId, false)
        .then((v) => {
          if (stopped) return;
          setFirmware({ currentVersion: v.currentVersion, latestVersion: v.latestVersion });
          if (otaOutcome.ok && v.currentVersion !== v.latestVersion && attempt < 5) {
            timer = setTimeout(() => read(attempt + 1), 1000);
          }
        })
        .catch(() => {});
    };
    read(1);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [deviceId, otaOutcome]);
  const onOtaStarted = useCallback(() => setOtaProgress((p) => p ?? 0), [setOtaProgress]);
  const device = live.device;
  const listed = family.data?.find((d) => d.id === deviceId);
  const title = device?.name ?? listed?.name ?? t("device.title");
  const more = () => navigateTo(PATHS.DeviceAttribute, { deviceId, familyId });

  if (!device) {
    // A link without a device (no `deviceId` in its params) asks for nothing: it says so instead of loading forever.
    if (!live.isError && deviceId) return <DeviceFrameScreen title={title} />;
    return (
      <PageShell title={title} testId="device-screen">
        <StateBlock
          icon={<ExclamationCircleOutline />}
          title={t("device.loadFailed")}
          text={live.error?.message}
          action={
            deviceId ? (
              <Button color="primary" onClick={() => void live.refetch()}>
                {t("device.retry")}
              </Button>
            ) : undefined
          }
          testId="device-error"
        />
        <FirstScreenDrawn />
      </PageShell>
    );
  }

  const reportedAt = device.reportedAt ?? device.lastReportTime; // real time, not the device's clock
  const driftSeconds = salt.data?.clockDriftSeconds ?? null;
  const drift = driftSeconds === null ? null : driftSeconds * 1000;
  return (
    <PageShell
      title={title}
      right={<MoreOutline fontSize="0.6rem" />}
      rightLabel={t("device.more")}
      onRight={more}
      testId="device-screen"
    >
      <div className="device-page" data-device-id={device.id} data-online={device.online ? "true" : "false"}>
        {/* Drawn out of sight at start-up, the hero and each section in a task of its own (first-paint/snapshot.ts):
            the screen's frame, the router and the providers are the first render's own. */}
        <Staged>
          <section className="device-hero">
            <div className="device-hero__image">
              <DeviceImage image={listed?.image} />
            </div>
            <div className="device-hero__body">
              <div className="device-hero__name" data-testid="device-name">
                {device.name}
              </div>
              <div className="device-hero__tags">
                <Tag
                  round
                  color={device.online ? "success" : "default"}
                  fill="outline"
                  data-testid="device-online"
                  data-online={device.online ? "true" : "false"}
                >
                  {device.online ? t("device.online") : t("device.offline")}
                </Tag>
                <LiveChip deviceOk={device.online && !device.reportsRefusedSince} />
              </div>
              {device.online ? <LastReported reportedAt={reportedAt} /> : <LastHeard heardAt={device.lastHeardAt} />}
            </div>
          </section>

          <LinkProblem device={device} onOpen={() => navigateTo(PATHS.Fault, { deviceId, familyId })} />
          {device.vacation ? (
            <div className="device-banner device-banner--info" data-testid="device-vacation">
              {t("device.vacation")}
            </div>
          ) : null}
          {device.closeReason ? (
            <button
              type="button"
              className="device-banner device-banner--danger"
              onClick={() => navigateTo(PATHS.Fault, { deviceId, familyId })}
              data-testid="device-close-reason"
              data-close-reason={device.closeReason}
            >
              {t("device.closed", {
                reason: t(`fault.reason.${device.closeReason}` as "fault.reason.257", {
                  defaultValue: t("fault.reason.unknown", { code: device.closeReason }),
                }),
              })}
              <RightOutline />
            </button>
          ) : null}
          {isClockDrifting(drift) ? (
            <div className="device-banner device-banner--warning" data-testid="device-clock-drift">
              <span>{t("device.clockDrift", { minutes: Math.round(Math.abs(drift ?? 0) / 60_000) })}</span>
              <Button
                size="mini"
                color="warning"
                onClick={() => setSyncRequest((n) => n + 1)}
                data-testid="device-sync-now"
              >
                {t("device.syncNow")}
              </Button>
            </div>
          ) : null}
        </Staged>

        <Staged>
          <StationSection device={device} durations={durations.data} />
        </Staged>

        <Staged>
          <ControlsSection
            deviceId={device.id}
            online={device.online}
            refused={Boolean(device.reportsRefusedSince)}
            vacation={device.vacation}
            otaProgress={live.otaProgress}
            otaOutcome={otaOutcome}
            firmwareVersions={firmware}
            onOtaStarted={onOtaStarted}
            syncRequest={syncRequest}
          />
        </Staged>

        <Staged>
          <SaltSection deviceId={device.id} />
        </Staged>

        <Staged>
          <Statistics deviceId={device.id} />
        </Staged>

        <Staged>
          <Cycles deviceId={device.id} />
        </Staged>

        <Staged>
          <section className="device-section device-links">
            <button type="button" className="device-links__item" onClick={more} data-testid="device-open-attribute">
              <span>{t("device.more")}</span>
              <RightOutline />
            </button>
            <button
              type="button"
              className="device-links__item"
              onClick={() => navigateTo(PATHS.Fault, { deviceId, familyId })}
              data-testid="device-open-fault"
            >
              <span>{t("device.faults")}</span>
              <RightOutline />
            </button>
          </section>
          <FirstScreenDrawn />
        </Staged>
      </div>
    </PageShell>
  );
}
