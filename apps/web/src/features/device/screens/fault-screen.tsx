import { useQuery } from "@tanstack/react-query";
import { Tag } from "antd-mobile";
import { CheckCircleOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { useRouteParams } from "../../../shared/navigation/index.js";
import { PageShell, StateBlock } from "../../../shared/ui/index.js";
import { deviceInfoQuery } from "../api/device-api.js";
import { useLiveDevice } from "../hooks.js";
import { currentFaults, type Fault, faultLabel } from "../logic/fault.js";
import type { DeviceParams } from "./device-screen.js";
import "../device.css";

/** One fault row: the §8 label as a tag and the close reason's text. */
function FaultRow({ fault, when, testId }: { fault: Fault; when: string; testId: string }) {
  const { t } = useTranslation();
  const reason =
    fault.closeReason === null
      ? t("fault.offlineHint")
      : t(`fault.reason.${fault.closeReason}` as "fault.reason.257", {
          defaultValue: t("fault.reason.unknown", { code: fault.closeReason }),
        });
  return (
    <div
      className="fault-row"
      data-testid={testId}
      data-close-reason={fault.closeReason ?? ""}
      data-label={fault.label}
    >
      <div className="fault-row__top">
        <Tag color={fault.label === "deviceOffline" ? "default" : "danger"} fill="outline">
          {t(`fault.label.${fault.label}`)}
        </Tag>
        <span className="fault-row__when">{when}</span>
      </div>
      <div className="fault-row__text">{reason}</div>
    </div>
  );
}

/**
 * /Fault (spec §2 Other): the device's faults — "Device offline" when it is, the live close reason (257 valve
 * button, 513 leak-point signal, 769 continuous use too long, 1025 excessive instantaneous flow) labelled
 * "System error" or "Excessive flow", and close events seen live on hub 1.
 */
export function FaultScreen() {
  const { t, i18n } = useTranslation();
  const { deviceId = "", familyId } = useRouteParams<DeviceParams>();
  const live = useLiveDevice(deviceId, familyId);
  const { data: device } = useQuery(deviceInfoQuery(deviceId));
  const faults = device ? currentFaults(device.online, device.closeReason) : [];
  const format = new Intl.DateTimeFormat(i18n.language === "zh-Hans" ? "zh-CN" : i18n.language, {
    dateStyle: "short",
    timeStyle: "short",
  });
  const recent = live.closeEvents.filter((e) => e.closeReason !== device?.closeReason);
  return (
    <PageShell title={t("fault.title")} testId="fault-screen">
      {device && faults.length === 0 && recent.length === 0 ? (
        <StateBlock
          icon={<CheckCircleOutline />}
          title={t("fault.none")}
          text={t("fault.noneHint")}
          testId="fault-none"
        />
      ) : null}
      <div className="fault-list">
        {faults.map((f) => (
          <FaultRow key={f.label + String(f.closeReason)} fault={f} when={t("fault.current")} testId="fault-current" />
        ))}
        {recent.map((e) => (
          <FaultRow
            key={e.time + e.closeReason}
            fault={{ closeReason: e.closeReason, label: faultLabel(e.closeReason) }}
            when={format.format(new Date(e.time))}
            testId="fault-recent"
          />
        ))}
      </div>
    </PageShell>
  );
}
