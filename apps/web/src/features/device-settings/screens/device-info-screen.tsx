import { Button, List, SpinLoading } from "antd-mobile";
import { ExclamationCircleOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { useFamilies } from "../../../shared/api/families.ts";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { getItem, setItem } from "../../../shared/storage/index.ts";
import { DeviceImage } from "../../../shared/ui/device-image.tsx";
import { confirmDialog, PageShell, StateBlock, toast } from "../../../shared/ui/index.ts";
import { ListItem } from "../../../shared/ui/list-item.tsx";
import { useDeleteDevice } from "../api/delete-device.ts";
import { useDevice } from "../api/get-device.ts";
import { formatMac } from "../pairing-code.ts";
import type { DeviceParams } from "../params.ts";
import "../device-settings.css";

/**
 * DeviceInfo (spec §2 /DeviceInfo; §3 Device info): device model, device serial number, control valve serial number
 * and the water treatment valve's MAC address, plus firmware version; rows to DeviceNameUpdate and DeviceImage; the
 * household administrator can delete (unbind) the device after a confirmation, then goes home.
 */
export function DeviceInfoScreen() {
  const { t } = useTranslation();
  const { deviceId } = useRouteParams<DeviceParams>();
  const device = useDevice(deviceId);
  const families = useFamilies();
  const remove = useDeleteDevice();
  const d = device.data;
  const isAdmin = families.data?.find((f) => f.id === d?.familyId)?.isAdmin === true;
  const unknown = t("deviceInfo.unknown");

  const onDelete = async () => {
    if (!d) return;
    if (!isAdmin) return toast(t("deviceInfo.adminOnly"));
    const ok = await confirmDialog({
      title: t("deviceInfo.deleteTitle"),
      content: t("deviceInfo.deleteText"),
      confirmText: t("deviceInfo.delete"),
      danger: true,
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(d.id);
      if (getItem("device")?.id === d.id) setItem("device", null);
      toast(t("deviceInfo.deleted"));
      navigateTo(PATHS.Home, null, { replace: true });
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  if (!d) {
    return (
      <PageShell title={t("routes.DeviceInfo")} testId="device-info-screen" className="ds-page">
        {device.isError ? (
          <StateBlock
            testId="device-info-error"
            icon={<ExclamationCircleOutline />}
            title={errorMessage(device.error, t("errors.requestFailed"))}
          />
        ) : (
          <StateBlock testId="device-info-loading" icon={<SpinLoading color="primary" />} title={t("common.loading")} />
        )}
      </PageShell>
    );
  }

  const row = (testId: string, label: string, value: string | null, mono = false) => (
    <ListItem extra={<span className={mono ? "ds-mono" : undefined}>{value || unknown}</span>} data-testid={testId}>
      {label}
    </ListItem>
  );

  return (
    <PageShell title={t("routes.DeviceInfo")} testId="device-info-screen" className="ds-page">
      <div className="ds-hero">
        <div className="ds-hero__image">
          <DeviceImage image={d.image} />
        </div>
        <div>
          <div className="ds-hero__name" data-testid="device-info-title">
            {d.name}
          </div>
          <div className="ds-hero__sub">{d.deviceModel?.name ?? d.model ?? ""}</div>
        </div>
      </div>
      <List mode="card">
        <ListItem
          extra={d.name}
          onClick={() => navigateTo(PATHS.DeviceNameUpdate, { deviceId: d.id })}
          data-testid="device-info-name"
        >
          {t("deviceInfo.name")}
        </ListItem>
        <ListItem
          extra={
            <span className="ds-hero__image" style={{ width: "0.96rem", height: "0.96rem", display: "inline-block" }}>
              <DeviceImage image={d.image} />
            </span>
          }
          onClick={() => navigateTo(PATHS.DeviceImage, { deviceId: d.id })}
          data-testid="device-info-image"
        >
          {t("deviceInfo.image")}
        </ListItem>
      </List>
      <List mode="card">
        {row("device-info-model", t("deviceInfo.model"), d.model)}
        {row("device-info-device-serial-number", t("deviceInfo.deviceSerialNumber"), d.deviceSerialNumber, true)}
        {row("device-info-serial-number", t("deviceInfo.serialNumber"), d.serialNumber, true)}
        {row("device-info-mac", t("deviceInfo.mac"), formatMac(d.mac), true)}
        {row("device-info-firmware", t("deviceInfo.firmwareVersion"), d.firmwareVersion, true)}
      </List>
      {isAdmin ? (
        <Button
          className="ds-danger"
          color="danger"
          fill="outline"
          shape="rounded"
          loading={remove.isPending}
          onClick={() => void onDelete()}
          data-testid="device-info-delete"
        >
          {t("deviceInfo.delete")}
        </Button>
      ) : null}
    </PageShell>
  );
}
