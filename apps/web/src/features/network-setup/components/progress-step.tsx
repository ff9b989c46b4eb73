import { BLE_SETUP_STEPS, SMART_SETUP_STEPS } from "@aquapilot/provisioning";
import { Button, ProgressBar, SpinLoading } from "antd-mobile";
import { CheckCircleFill, CloseCircleFill, ExclamationCircleFill } from "antd-mobile-icons";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { formatPercent } from "../../../shared/format/percent.ts";
import { goBack, navigateTo, PATHS, replaceFlow } from "../../../shared/navigation/index.ts";
import { rememberWifi, setItem } from "../../../shared/storage/index.ts";
import { confirmDialog, useBackGuard } from "../../../shared/ui/index.ts";
import { type BleSetupSnapshot, bleProgressPercent } from "../logic/ble-flow.ts";
import { roundPercent } from "../logic/flow-kit.ts";
import { type SmartSetupSnapshot, smartProgressPercent } from "../logic/smart-flow.ts";
import { type DeviceNetworkParams, setupEntries } from "../params.ts";
import { findSession, type SetupSession } from "../setup-session.ts";
import { goToStep } from "./setup-context.ts";

/** How long "Device added successfully" shows before the device is named, ms. */
const SUCCESS_PAUSE_MS = 1200;
/** A progress page that goes away while its setup runs cancels it after this long (not on a StrictMode remount). */
const DETACH_CANCEL_MS = 1000;

const attached = new Map<string, number>();

function useSnapshot(session: SetupSession): BleSetupSnapshot | SmartSetupSnapshot {
  const run = session.run;
  return useSyncExternalStore(
    (cb) => (run as { subscribe(l: () => void): () => void }).subscribe(cb),
    () => run.snapshot(),
  );
}

/** The current time, ticking while `running` (the progress bar creeps between state changes). */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

type StepState = "done" | "active" | "pending" | "failed";

/**
 * The progress step of spec §4: the chosen flow's progress steps (Bluetooth: starting network setup, adding device,
 * Device added successfully — with the module's state 0–4 and the link under the first; old version: starting network
 * setup, searching for device, device connected to Wi-Fi successfully, device is connecting to the server, adding
 * device, Device added successfully), a progress bar with the percent to one decimal (spec §9), every failure with
 * its §4 text, why and what to do (Retry, Check the Wi-Fi name and password, Go back to homepage). On success the
 * Wi-Fi is remembered (spec §3 `wifi`) and the owner names the device on DeviceNetworkNameUpdate, which takes the
 * setup's pages' place in history (back goes to where the setup was opened). Leaving while it
 * runs (back arrow, system back, browser back) asks first; a reload shows that the setup was interrupted.
 * Test ids: `network-setup-progress` (data-status, data-mode), `network-setup-percent`, `network-setup-progress-bar`
 * (data-percent), `network-setup-step` (data-step, data-state), `network-setup-module-state` (data-module-state),
 * `network-setup-failure` (data-reason, data-code), `network-setup-failure-text`, `network-setup-failure-hint`,
 * `network-setup-retry`, `network-setup-change-wifi`, `network-setup-home`, `network-setup-cancel`,
 * `network-setup-interrupted`, `network-setup-back-to-wifi`.
 */
export function ProgressStep({ params }: { params: Partial<DeviceNetworkParams> }) {
  const session = findSession(params.run);
  if (!session) return <Interrupted params={params} />;
  return <Progress key={session.id} session={session} entries={setupEntries(params)} />;
}

function Interrupted({ params }: { params: Partial<DeviceNetworkParams> }) {
  const { t } = useTranslation();
  return (
    <div className="ns-step" data-testid="network-setup-interrupted">
      <div className="ns-result ns-result--failed">
        <ExclamationCircleFill className="ns-result__icon" />
        <div className="ns-result__title">{t("networkSetup.progress.interruptedTitle")}</div>
        <div className="ns-result__text">{t("networkSetup.progress.interruptedText")}</div>
      </div>
      <div className="ns-actions">
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          onClick={() => goToStep(params, "wifi", {}, { replace: true })}
          data-testid="network-setup-back-to-wifi"
        >
          {t("networkSetup.progress.backToWifi")}
        </Button>
        <HomeButton />
      </div>
    </div>
  );
}

/** The running setup `session`; `entries`: the setup's history entries up to this page (taken away on success). */
function Progress({ session, entries }: { session: SetupSession; entries: number }) {
  const { t, i18n } = useTranslation();
  const snap = useSnapshot(session);
  const running = snap.status === "running";
  const now = useNow(running);
  const percent =
    session.mode === "ble"
      ? bleProgressPercent(snap as BleSetupSnapshot, now)
      : smartProgressPercent(snap as SmartSetupSnapshot, now);
  const steps: readonly string[] = session.mode === "ble" ? BLE_SETUP_STEPS : SMART_SETUP_STEPS;
  const currentIndex = steps.indexOf(snap.step);

  // A page that goes away while its setup runs (not a StrictMode remount) cancels it.
  useEffect(() => {
    attached.set(session.id, (attached.get(session.id) ?? 0) + 1);
    return () => {
      attached.set(session.id, (attached.get(session.id) ?? 1) - 1);
      setTimeout(() => {
        if ((attached.get(session.id) ?? 0) <= 0) session.run.cancel();
      }, DETACH_CANCEL_MS);
    };
  }, [session]);

  // Back while it runs asks first (spec §2 back: a stray press must not stop a setup); back again
  // while the question is open closes the question (the top dialog first), and the setup goes on.
  useBackGuard(running, async () => {
    const stop = await confirmDialog({
      title: t("networkSetup.progress.cancelTitle"),
      content: t("networkSetup.progress.cancelText"),
      confirmText: t("networkSetup.progress.stop"),
      danger: true,
    });
    if (stop) session.run.cancel();
    return stop;
  });

  // Success: remember the Wi-Fi (spec §3 `wifi`), then name the device on a page that takes the setup's
  // place in history: back from it goes to where the setup was opened (Home), not into the Wi-Fi step.
  const done = useRef(false);
  useEffect(() => {
    if (snap.status !== "succeeded" || !snap.device || done.current) return;
    done.current = true;
    const device = snap.device;
    rememberWifi(session.ssid, session.password);
    setItem("device", { id: device.id, name: device.name, mac: device.mac });
    const timer = setTimeout(
      () => replaceFlow(entries, PATHS.DeviceNetworkNameUpdate, { deviceId: device.id, familyId: device.familyId }),
      SUCCESS_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [snap, session, entries]);

  const cancel = async () => {
    const stop = await confirmDialog({
      title: t("networkSetup.progress.cancelTitle"),
      content: t("networkSetup.progress.cancelText"),
      confirmText: t("networkSetup.progress.stop"),
      danger: true,
    });
    if (stop) session.run.cancel();
  };

  const stepState = (i: number): StepState => {
    if (snap.status === "succeeded") return "done";
    if (i < currentIndex) return "done";
    if (i > currentIndex) return "pending";
    return running ? "active" : "failed";
  };

  return (
    <div className="ns-step" data-testid="network-setup-progress" data-status={snap.status} data-mode={session.mode}>
      <section className={`ns-card ns-progress ns-progress--${snap.status}`}>
        <div className="ns-progress__head">
          <span className="ns-progress__ssid">{session.ssid}</span>
          <span className="ns-progress__percent" data-testid="network-setup-percent">
            {formatPercent(percent, i18n.language)}
          </span>
        </div>
        <ProgressBar
          percent={percent}
          className={`ns-progress__bar ns-progress__bar--${snap.status}`}
          data-testid="network-setup-progress-bar"
          data-percent={roundPercent(percent).toFixed(1)}
        />
        <ol className="ns-steps">
          {steps.map((step, i) => {
            const state = stepState(i);
            return (
              <li
                key={step}
                className={`ns-steps__item ns-steps__item--${state}`}
                data-testid="network-setup-step"
                data-step={step}
                data-state={state}
              >
                <span className="ns-steps__mark">
                  {state === "done" ? (
                    <CheckCircleFill />
                  ) : state === "failed" ? (
                    <CloseCircleFill />
                  ) : state === "active" ? (
                    <SpinLoading color="primary" className="ns-steps__spin" />
                  ) : (
                    <span className="ns-steps__dot" />
                  )}
                </span>
                <span className="ns-steps__body">
                  <span className="ns-steps__label ns-cap">
                    {t(`networkSetup.progress.steps.${step as "starting"}`)}
                  </span>
                  {(state === "active" || state === "failed") && step === "starting" ? (
                    <Detail session={session} snap={snap} />
                  ) : null}
                </span>
              </li>
            );
          })}
        </ol>
      </section>

      {running ? <p className="ns-note ns-note--center">{t("networkSetup.progress.keepOpen")}</p> : null}
      {snap.status === "failed" || snap.status === "cancelled" ? <Failure session={session} snap={snap} /> : null}

      <div className="ns-actions">
        {running ? (
          <Button
            block
            shape="rounded"
            disabled={snap.step === "adding"}
            onClick={() => void cancel()}
            data-testid="network-setup-cancel"
          >
            {t("networkSetup.progress.cancel")}
          </Button>
        ) : null}
        {snap.status === "failed" || snap.status === "cancelled" ? (
          <>
            <Button
              block
              color="primary"
              shape="rounded"
              size="large"
              onClick={() => void session.run.retry()}
              data-testid="network-setup-retry"
            >
              {t("networkSetup.progress.retry")}
            </Button>
            <Button
              block
              color="primary"
              fill="outline"
              shape="rounded"
              onClick={() => goBack()}
              data-testid="network-setup-change-wifi"
            >
              {t("networkSetup.progress.changeWifi")}
            </Button>
            <HomeButton />
          </>
        ) : null}
      </div>
    </div>
  );
}

/** "Go back to homepage" after a setup that cannot go on (spec §4 failure actions). */
function HomeButton() {
  const { t } = useTranslation();
  return (
    <Button
      block
      shape="rounded"
      onClick={() => navigateTo(PATHS.Home, null, { replace: true })}
      data-testid="network-setup-home"
    >
      {t("networkSetup.progress.home")}
    </Button>
  );
}

/** What happens inside "starting network setup": the Bluetooth link and the module's state, or the access point. */
function Detail({ session, snap }: { session: SetupSession; snap: BleSetupSnapshot | SmartSetupSnapshot }) {
  const { t } = useTranslation();
  if (session.mode === "ap") {
    const s = snap as SmartSetupSnapshot;
    return s.onAccessPoint ? (
      <span className="ns-steps__detail">{t("networkSetup.progress.onAccessPoint")}</span>
    ) : null;
  }
  const s = snap as BleSetupSnapshot;
  const running = s.status === "running";
  if (!running && s.moduleState === null) return null;
  let text: string;
  if (running && (s.link === "reconnecting" || s.link === "closed")) text = t("networkSetup.progress.reconnecting");
  else if (s.moduleState === null) text = t("networkSetup.progress.connecting");
  else {
    text = t("networkSetup.progress.deviceState", {
      state: t(`networkSetup.progress.moduleStates.${String(s.moduleState) as "0"}`),
    });
  }
  return (
    <span
      className="ns-steps__detail"
      data-testid="network-setup-module-state"
      data-module-state={s.moduleState ?? ""}
      data-link={s.link}
    >
      {text}
    </span>
  );
}

/** The failure (or cancel) panel: the §4 text, why, and what to do next. */
function Failure({ session, snap }: { session: SetupSession; snap: BleSetupSnapshot | SmartSetupSnapshot }) {
  const { t } = useTranslation();
  if (snap.status === "cancelled") {
    return (
      <div
        className="ns-result ns-result--cancelled"
        data-testid="network-setup-failure"
        data-reason="cancelled"
        data-code=""
      >
        <ExclamationCircleFill className="ns-result__icon" />
        <div className="ns-result__title" data-testid="network-setup-failure-text">
          {t("networkSetup.progress.cancelled")}
        </div>
      </div>
    );
  }
  const failure = snap.failure;
  if (!failure) return null;
  let title: string;
  let hint: string;
  let why: string | null = null;
  if (failure.reason === "bind") {
    title = t("networkSetup.progress.bindFailed");
    hint = t("networkSetup.progress.bindHint");
    why = failure.message;
  } else if (session.mode === "ble") {
    const code = String(failure.code) as "1";
    title = t(`networkSetup.progress.bleFailures.${code}`);
    hint = t(`networkSetup.progress.bleHints.${code}`);
    if (failure.reason === "connect") why = t("networkSetup.progress.reasons.connect");
    if (failure.reason === "link-lost") why = t("networkSetup.progress.reasons.linkLost");
    if (failure.reason === "deadline") why = t("networkSetup.progress.reasons.deadline");
  } else {
    const code = String(failure.code) as "1";
    const f = failure as SmartSetupSnapshot["failure"] & object;
    title = t(`networkSetup.progress.smartFailures.${code}`);
    hint = t(`networkSetup.progress.smartHints.${code}`);
    if (f.reason === "server-timeout") why = t("networkSetup.progress.reasons.serverTimeout");
    if (f.reason === "server" && f.moduleFailure >= 1 && f.moduleFailure <= 8) {
      why = t("networkSetup.progress.reasons.module", {
        text: t(`networkSetup.progress.bleFailures.${String(f.moduleFailure) as "1"}`),
      });
    }
  }
  return (
    <div
      className="ns-result ns-result--failed"
      data-testid="network-setup-failure"
      data-reason={failure.reason}
      data-code={failure.code ?? ""}
    >
      <CloseCircleFill className="ns-result__icon" />
      <div className="ns-result__title ns-cap" data-testid="network-setup-failure-text">
        {title}
      </div>
      {why ? <div className="ns-result__why">{why}</div> : null}
      <div className="ns-result__text" data-testid="network-setup-failure-hint">
        {hint}
      </div>
    </div>
  );
}
