import { List } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { useDeviceInfo } from "../../../shared/device/api/get-device-info.ts";
import { ageInYears } from "../../../shared/format/age.ts";
import { navigateTo, PATHS, type RoutePath, useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell } from "../../../shared/ui/index.ts";
import { ListItem } from "../../../shared/ui/list-item.tsx";
import type { DeviceParams } from "./device-screen.tsx";
import "../device.css";
import { numberFormat } from "../../../shared/format/intl.ts";
import { useVolume } from "../../../shared/units/volume.ts";

/**
 * /DeviceAttribute (spec §2): the device's attributes — model, serial numbers, firmware, MAC, age (365-day years since
 * its factory registration, spec §9), a settings summary —
 * and links to DeviceInfo, DeviceSetting, DeviceNameUpdate and DeviceImage.
 */
export function DeviceAttributeScreen() {
  const { t, i18n } = useTranslation();
  const { volume } = useVolume();
  const { deviceId = "", familyId } = useRouteParams<DeviceParams>();
  const { data: device } = useDeviceInfo(deviceId);
  const _number = numberFormat(i18n.language === "zh-Hans" ? "zh-CN" : i18n.language, {
    maximumFractionDigits: 0,
  });
  const value = (v: string | null | undefined) => v || "—";
  // The device's age since its factory registration, in 365-day years (spec §9).
  const age = (start: string | null | undefined) => {
    const years = ageInYears(start);
    if (years === null) return "—";
    return years === 0 ? t("deviceAttribute.ageUnderOne") : t("deviceAttribute.ageYears", { count: years });
  };
  const open = (path: RoutePath) => () => navigateTo(path, { deviceId, familyId });
  const rows: [string, string, string][] = device
    ? [
        ["model", t("deviceAttribute.model"), value(device.model)],
        ["device-serial", t("deviceAttribute.deviceSerialNumber"), value(device.deviceSerialNumber)],
        ["serial", t("deviceAttribute.serialNumber"), value(device.serialNumber)],
        ["firmware", t("deviceAttribute.firmware"), value(device.firmwareVersion)],
        ["mac", t("deviceAttribute.mac"), value(device.mac)],
        ["age", t("deviceAttribute.age"), age(device.registeredAt)],
      ]
    : [];
  const settings: [string, string, string][] = device
    ? [
        ["capacity", t("deviceAttribute.capacity"), device.capacityL === null ? "—" : volume(device.capacityL)],
        [
          "total-water",
          t("deviceAttribute.totalWater"),
          device.totalWaterL === null ? "—" : volume(device.totalWaterL),
        ],
        [
          "vacation",
          t("deviceAttribute.vacation"),
          device.vacation ? t("deviceAttribute.on") : t("deviceAttribute.off"),
        ],
      ]
    : [];
  return (
    <PageShell title={t("deviceAttribute.title")} testId="device-attribute-screen">
      <List className="device-list" data-testid="device-attributes">
        {rows.map(([key, label, v]) => (
          <ListItem key={key} extra={<span data-testid={`attr-${key}`}>{v}</span>}>
            {label}
          </ListItem>
        ))}
      </List>
      <List className="device-list" header={t("deviceAttribute.settingsSummary")}>
        {settings.map(([key, label, v]) => (
          <ListItem key={key} extra={<span data-testid={`attr-${key}`}>{v}</span>}>
            {label}
          </ListItem>
        ))}
      </List>
      <List className="device-list">
        <ListItem onClick={open(PATHS.DeviceInfo)} data-testid="attr-open-info">
          {t("deviceAttribute.deviceInfo")}
        </ListItem>
        <ListItem onClick={open(PATHS.DeviceSetting)} data-testid="attr-open-setting">
          {t("deviceAttribute.deviceSetting")}
        </ListItem>
        <ListItem onClick={open(PATHS.DeviceNameUpdate)} extra={device?.name} data-testid="attr-open-name">
          {t("deviceAttribute.deviceName")}
        </ListItem>
        <ListItem onClick={open(PATHS.DeviceImage)} data-testid="attr-open-image">
          {t("deviceAttribute.deviceImage")}
        </ListItem>
      </List>
    </PageShell>
  );
}
