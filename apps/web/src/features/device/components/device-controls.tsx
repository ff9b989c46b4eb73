import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../shared/api/errors.ts";
import { getOtaVersion } from "../../../shared/device/api/get-ota-version.ts";
import { deviceKeys, invalidateDeviceStatistics } from "../../../shared/device/api/keys.ts";
import type { CommandKind, CommandState } from "../../../shared/device/command-state.ts";
import { useDeviceCommand, useLongPress } from "../../../shared/device/hooks.ts";
import { usePhoneLink } from "../../../shared/realtime/index.ts";
import { toast, useSingleFlight } from "../../../shared/ui/index.ts";
import { confirmLazily } from "../../../shared/ui/lazy-overlays.ts";
import { type FirmwareOutcome, FirmwareStatus } from "./firmware-status.tsx";

/** The text key of each command's name. */
const COMMAND_LABEL = {
  vacationEnter: "deviceControl.vacationEnter",
  vacationExit: "deviceControl.vacationExit",
  forcedRegeneration: "deviceControl.forcedRegeneration",
  forcedFlushing: "deviceControl.forcedFlushing",
  forcedSwitch: "deviceControl.forcedSwitch",
  ota: "deviceControl.firmwareUpdate",
  timeSync: "deviceControl.timeSync",
} as const satisfies Record<CommandKind, string>;

/** The status line of the last command: pending → done, or the failure ("Device offline" when no answer). */
function CommandStatus({ state }: { state: CommandState }) {
  const { t } = useTranslation();
  if (state.status === "idle") return null;
  const command = t(COMMAND_LABEL[state.kind]);
  let text: string;
  if (state.status === "pending") text = t("deviceControl.pending", { command });
  else if (state.status === "done") text = t("deviceControl.done", { command });
  else if (state.failure.reason === "offline") text = t("deviceControl.deviceOffline");
  else if (state.failure.reason === "refused")
    text = t("deviceControl.refused", { command, error: state.failure.error ?? "" });
  else text = t("deviceControl.failed", { command, message: state.failure.message });
  return (
    <div
      className={`device-command device-command--${state.status}`}
      data-testid="device-command-status"
      data-status={state.status}
      data-kind={state.kind}
      role="status"
    >
      {text}
    </div>
  );
}

/**
 * The controls of spec §4: vacation enter/exit and forced regeneration/flushing (each confirmed), forced switch
 * (press and hold 2 s), firmware update with the versions, progress (blocks other commands while it runs) and how the
 * last update ended ({@link FirmwareStatus}), and time sync
 * ("Confirm synchronization time?", sends the phone's time). `syncRequest` changes when the drift banner asks for a sync.
 * Without the phone's link to the cloud or the device's (offline), or while the cloud refuses the device's reports (a
 * command could never be seen applied), every control is disabled and a line says why.
 */
export function DeviceControls(props: {
  deviceId: string;
  online: boolean;
  /** The cloud refuses the device's reports: a command could never be seen applied. */
  refused?: boolean;
  vacation: boolean;
  otaProgress: number | null;
  /** How the last firmware update ended (null: none since the screen opened, or unknown). */
  otaOutcome?: FirmwareOutcome | null;
  /** The device's firmware version and the one offered (null until read). */
  firmwareVersions?: { currentVersion: string | null; latestVersion: string | null } | null;
  onOtaStarted: () => void;
  syncRequest: number;
}) {
  const { deviceId, online, refused = false, vacation, otaProgress, onOtaStarted, syncRequest } = props;
  const { otaOutcome = null, firmwareVersions: versions = null } = props;
  const { t } = useTranslation();
  const { state, run } = useDeviceCommand(deviceId, online);
  const updating = otaProgress !== null;
  // A command needs the phone's link and the device's: without either, the controls are off and say why.
  const linkLost = usePhoneLink().state !== "connected";
  const unreachable = linkLost || !online || refused;
  const busy = state.status === "pending" || updating || unreachable;

  const queryClient = useQueryClient();
  useEffect(() => {
    if (state.status !== "done") return;
    if (state.kind === "ota") onOtaStarted();
    // A done command changes what the server knows (clock drift, statistics, salt, cycles): read them again.
    // Vacation and firmware are not in hub-1 messages: the device info is read again too.
    void queryClient.invalidateQueries({ queryKey: deviceKeys.info(deviceId) });
    void invalidateDeviceStatistics(queryClient, deviceId);
  }, [state, onOtaStarted, queryClient, deviceId]);

  // One command at a time: a second tap while the question is open or the command is being sent is dropped.
  const flight = useSingleFlight();
  const guarded = (kind: CommandKind, question?: string) =>
    flight.run(async () => {
      if (updating) {
        toast(t("deviceControl.updating"));
        return;
      }
      if (state.status === "pending") return;
      // The question's code loads with the first command that asks (off Device's first screen).
      if (question && !(await confirmLazily({ content: question }))) return;
      await run(kind);
    });

  const timeSync = () => guarded("timeSync", t("deviceControl.confirmTimeSync"));
  const latestTimeSync = useRef(timeSync);
  latestTimeSync.current = timeSync;
  useEffect(() => {
    if (syncRequest > 0) void latestTimeSync.current();
  }, [syncRequest]);

  const firmware = async () => {
    if (busy) return guarded("ota");
    try {
      const version = await getOtaVersion(deviceId);
      if (version.updating) {
        onOtaStarted();
        return;
      }
      if (!version.updateAvailable) {
        toast(t("deviceControl.upToDate", { version: version.currentVersion ?? "" }));
        return;
      }
      await guarded("ota", t("deviceControl.confirmUpdate", { version: version.latestVersion ?? "" }));
    } catch (err) {
      toast(err instanceof ApiError ? err.message : String(err));
    }
  };

  // A screen reader cannot hold: its activation asks for a confirmation instead of the 2 s hold.
  const hold = useLongPress(
    () => void guarded("forcedSwitch"),
    busy,
    () => void guarded("forcedSwitch", t("deviceControl.confirmForcedSwitch")),
  );

  return (
    <section className="device-section" data-testid="device-controls">
      <h2 className="device-section__title">{t("deviceControl.title")}</h2>
      <FirmwareStatus
        currentVersion={versions?.currentVersion ?? null}
        latestVersion={versions?.latestVersion ?? null}
        progress={otaProgress}
        outcome={otaOutcome}
      />
      <div className="device-controls">
        {vacation ? (
          <Button
            disabled={busy}
            onClick={() => guarded("vacationExit", t("deviceControl.confirmVacationExit"))}
            data-testid="control-vacation-exit"
          >
            {t("deviceControl.vacationExit")}
          </Button>
        ) : (
          <Button
            disabled={busy}
            onClick={() => guarded("vacationEnter", t("deviceControl.confirmVacationEnter"))}
            data-testid="control-vacation-enter"
          >
            {t("deviceControl.vacationEnter")}
          </Button>
        )}
        <Button
          disabled={busy}
          onClick={() => guarded("forcedRegeneration", t("deviceControl.confirmForcedRegeneration"))}
          data-testid="control-forced-regeneration"
        >
          {t("deviceControl.forcedRegeneration")}
        </Button>
        <Button
          disabled={busy}
          onClick={() => guarded("forcedFlushing", t("deviceControl.confirmForcedFlushing"))}
          data-testid="control-forced-flushing"
        >
          {t("deviceControl.forcedFlushing")}
        </Button>
        <button
          type="button"
          className="device-hold"
          disabled={busy}
          data-testid="control-forced-switch"
          data-progress={hold.progress.toFixed(2)}
          {...hold.handlers}
        >
          <span className="device-hold__fill" style={{ width: `${hold.progress * 100}%` }} />
          <span className="device-hold__text">{t("deviceControl.forcedSwitch")}</span>
        </button>
        <Button disabled={busy} onClick={firmware} data-testid="control-ota">
          {t("deviceControl.firmwareUpdate")}
        </Button>
        <Button disabled={busy} onClick={timeSync} data-testid="control-time-sync">
          {t("deviceControl.timeSync")}
        </Button>
      </div>
      {unreachable ? (
        <div className="device-controls__off" data-testid="device-controls-off" role="note">
          {linkLost ? t("link.controlsOff") : !online ? t("errors.deviceOffline") : t("deviceControl.controlsRefused")}
        </div>
      ) : (
        <div className="device-controls__hint">{t("deviceControl.holdHint")}</div>
      )}
      {/* An accepted firmware update goes on in the firmware part (progress, then its outcome), not as "done" here. */}
      {state.status === "done" && state.kind === "ota" ? null : <CommandStatus state={state} />}
    </section>
  );
}
