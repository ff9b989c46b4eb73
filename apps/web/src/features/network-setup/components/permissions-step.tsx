import { Button, DotLoading } from "antd-mobile";
import { CheckCircleFill, CloseCircleFill, ExclamationCircleFill, MinusCircleOutline } from "antd-mobile-icons";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  checkNativePermission,
  hasNativeBridge,
  isLocationEnabled,
  startIntent,
} from "../../../shared/bridge/index.ts";
import { confirmDialog } from "../../../shared/ui/index.ts";
import { bluetoothStatus } from "../ble/ble-transport.ts";
import { checkPermissions, type PermissionItem, type PermissionReport, permissionItems } from "../logic/permissions.ts";
import type { SetupMode } from "../logic/wifi-validation.ts";
import type { DeviceNetworkParams } from "../params.ts";
import { goToStep, useWifiBridge } from "./setup-context.ts";

function Row(props: { item: PermissionItem; report: PermissionReport | null; checking: boolean }) {
  const { t } = useTranslation();
  const row = props.report?.rows.find((r) => r.item === props.item) ?? null;
  const state = props.checking || !row ? "checking" : row.state;
  return (
    <div
      className={`ns-perm ns-perm--${state}`}
      data-testid={`network-setup-permission-${props.item}`}
      data-state={state}
    >
      <span className="ns-perm__icon">
        {state === "checking" ? (
          <DotLoading color="primary" />
        ) : state === "ok" ? (
          <CheckCircleFill />
        ) : state === "skipped" ? (
          <MinusCircleOutline />
        ) : (
          <CloseCircleFill />
        )}
      </span>
      <span className="ns-perm__main">
        <span className="ns-perm__label">{t(`networkSetup.permissions.items.${props.item}`)}</span>
        <span className="ns-perm__status" data-testid={`network-setup-permission-${props.item}-text`}>
          {state === "checking"
            ? t("networkSetup.permissions.checking")
            : row?.state === "ok"
              ? t("networkSetup.permissions.ok")
              : row?.state === "skipped"
                ? t(`networkSetup.permissions.skipped.${row.skip}`)
                : row?.state === "failed"
                  ? t(`networkSetup.permissions.problems.${row.problem}`)
                  : null}
        </span>
        {row?.state === "failed" && row.problem === "locationOff" ? (
          <span className="ns-perm__detail">{t("networkSetup.permissions.locationOffDetail")}</span>
        ) : null}
        {row?.state === "failed" && row.intent === null ? (
          <span className="ns-perm__detail">{t("networkSetup.permissions.browserHint")}</span>
        ) : null}
      </span>
      {row?.state === "failed" && row.intent ? (
        <Button
          size="mini"
          color="primary"
          fill="outline"
          shape="rounded"
          className="ns-perm__action"
          onClick={() => void startIntent(row.intent as string)}
          data-testid={`network-setup-permission-${props.item}-settings`}
        >
          {t("networkSetup.permissions.openSettings")}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * The permission step (spec §4 "location and Bluetooth permissions granted, location and Bluetooth switched on";
 * §8 texts): each row checked through the native bridge when a shell is there (and the radio through BleClient),
 * with a settings button (`startIntent`) on a failed row; checked again on "Check again" and whenever the page
 * becomes visible (back from the settings). A browser without Web Bluetooth, or the old version without a native or
 * development bridge, gets an explanation instead of Next. Test ids: `network-setup-permissions` (data-ready),
 * `network-setup-permission-<item>` (data-state checking|ok|failed|skipped), `…-<item>-text`, `…-<item>-settings`,
 * `network-setup-permissions-recheck`, `network-setup-unsupported`, `network-setup-needs-app`, `network-setup-next`.
 */
export function PermissionsStep({ params }: { params: Partial<DeviceNetworkParams> }) {
  const { t } = useTranslation();
  const mode = params.mode as SetupMode;
  const bridge = useWifiBridge();
  const [report, setReport] = useState<PermissionReport | null>(null);
  const [checking, setChecking] = useState(true);
  const busy = useRef(false);
  const askedSettings = useRef(false);

  const check = useCallback(async () => {
    if (!bridge || busy.current) return;
    busy.current = true;
    setChecking(true);
    try {
      const next = await checkPermissions(mode, {
        native: hasNativeBridge(),
        checkPermission: checkNativePermission,
        isLocationEnabled,
        bluetooth: bluetoothStatus,
        wifiBridge: bridge.kind,
      });
      setReport(next);
      // spec §8: a denied location permission gets the "Permission request failed" dialog with a way to the settings
      const denied = next.rows.some((r) => r.state === "failed" && r.problem === "locationDenied");
      if (denied && !askedSettings.current) {
        askedSettings.current = true;
        void confirmDialog({
          title: t("networkSetup.permissions.permissionFailed"),
          content: t("networkSetup.permissions.problems.locationDenied"),
          confirmText: t("networkSetup.permissions.openSettings"),
        }).then((go) => {
          if (go) void startIntent("settings");
        });
      }
    } finally {
      busy.current = false;
      setChecking(false);
    }
  }, [bridge, mode, t]);

  useEffect(() => {
    void check();
    const onVisible = () => {
      if (document.visibilityState === "visible") void check();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [check]);

  const items = permissionItems(mode);
  const half = mode === "ble" ? 2 : 1;
  const groups = [
    {
      title: t(mode === "ble" ? "networkSetup.permissions.grantedBle" : "networkSetup.permissions.grantedAp"),
      items: items.slice(0, half),
    },
    {
      title: t(mode === "ble" ? "networkSetup.permissions.switchedOnBle" : "networkSetup.permissions.switchedOnAp"),
      items: items.slice(half),
    },
  ];
  const ready = !checking && report?.ready === true;

  return (
    <div className="ns-step" data-testid="network-setup-permissions" data-ready={ready}>
      <p className="ns-lead">{t("networkSetup.permissions.intro")}</p>
      {report?.blocked === "needsApp"
        ? null
        : groups.map((g) => (
            <section key={g.title} className="ns-card">
              <div className="ns-card__title ns-cap">{g.title}</div>
              {g.items.map((item) => (
                <Row key={item} item={item} report={report} checking={checking && !report} />
              ))}
            </section>
          ))}
      {report?.blocked === "unsupported" ? (
        <div className="ns-banner ns-banner--error" data-testid="network-setup-unsupported">
          <ExclamationCircleFill />
          <div>
            <div className="ns-banner__title">{t("networkSetup.permissions.unsupportedTitle")}</div>
            <div>{t("networkSetup.permissions.unsupportedText")}</div>
          </div>
        </div>
      ) : null}
      {report?.blocked === "needsApp" ? (
        <div className="ns-banner ns-banner--error" data-testid="network-setup-needs-app">
          <ExclamationCircleFill />
          <div>
            <div className="ns-banner__title">{t("networkSetup.mode.needsAppTitle")}</div>
            <div>{t("networkSetup.mode.needsAppText")}</div>
          </div>
        </div>
      ) : null}
      <div className="ns-actions">
        {report && !report.ready && !report.blocked ? (
          <Button
            block
            fill="outline"
            color="primary"
            shape="rounded"
            loading={checking}
            onClick={() => void check()}
            data-testid="network-setup-permissions-recheck"
          >
            {t("networkSetup.permissions.recheck")}
          </Button>
        ) : null}
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          disabled={!ready}
          onClick={() => goToStep(params, "wifi")}
          data-testid="network-setup-next"
        >
          {t("networkSetup.guide.next")}
        </Button>
      </div>
    </div>
  );
}
