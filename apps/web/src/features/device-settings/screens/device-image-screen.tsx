import { Button, SpinLoading } from "antd-mobile";
import { CheckCircleFill, PictureOutline } from "antd-mobile-icons";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.js";
import { goBack, useRouteParams } from "../../../shared/navigation/index.js";
import { PageShell, StateBlock, toast } from "../../../shared/ui/index.js";
import { useDevice } from "../api/get-device.js";
import { useModelImages } from "../api/get-model-images.js";
import { useUpdateDeviceImage } from "../api/update-device.js";
import { DeviceImage } from "../components/device-image.js";
import type { DeviceParams } from "../params.js";
import "../device-settings.css";

/**
 * DeviceImage (spec §2 /DeviceImage): the current picture and the images of the device's model
 * (get-images-by-device-mac, main image first); the chosen one is saved with `update-device-image`. The server
 * offers no image upload for devices yet, so choosing is the only way (a note says so).
 */
export function DeviceImageScreen() {
  const { t } = useTranslation();
  const { deviceId } = useRouteParams<DeviceParams>();
  const device = useDevice(deviceId);
  const images = useModelImages(device.data?.mac);
  const update = useUpdateDeviceImage();
  const [chosen, setChosen] = useState<string | null>(null);

  useEffect(() => {
    if (device.data && chosen === null) setChosen(device.data.image);
  }, [device.data, chosen]);

  const save = async () => {
    if (!deviceId || !chosen) return;
    if (chosen === device.data?.image) return goBack();
    try {
      await update.mutateAsync({ deviceId, image: chosen });
      toast(t("deviceImage.saved"));
      goBack();
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  const list = images.data ?? [];
  return (
    <PageShell
      title={t("routes.DeviceImage")}
      testId="device-image-screen"
      className="ds-page"
      footer={
        <div className="ds-footer">
          <Button
            block
            color="primary"
            shape="rounded"
            disabled={!chosen || chosen === device.data?.image}
            loading={update.isPending}
            onClick={() => void save()}
            data-testid="device-image-save"
          >
            {t("deviceImage.save")}
          </Button>
        </div>
      }
    >
      <div className="ds-group__title">{t("deviceImage.current")}</div>
      <div className="ds-current" data-testid="device-image-current">
        <DeviceImage image={chosen ?? device.data?.image} />
      </div>
      <div className="ds-group__title">{t("deviceImage.pick")}</div>
      {images.isPending && device.data ? (
        <StateBlock icon={<SpinLoading color="primary" />} title={t("common.loading")} />
      ) : list.length === 0 ? (
        <StateBlock testId="device-image-empty" icon={<PictureOutline />} title={t("deviceImage.none")} />
      ) : (
        <div className="ds-images" data-testid="device-image-list">
          {list.map((image) => (
            <button
              type="button"
              key={image}
              className={`ds-image ${chosen === image ? "ds-image--selected" : ""}`}
              onClick={() => setChosen(image)}
              data-testid="device-image-option"
              data-image={image}
              data-selected={chosen === image ? "true" : "false"}
            >
              <DeviceImage image={image} />
              {chosen === image ? <CheckCircleFill className="ds-image__check" /> : null}
            </button>
          ))}
        </div>
      )}
      <p className="ds-note">{t("deviceImage.uploadNote")}</p>
    </PageShell>
  );
}
