import { FILE_UPLOAD_PREFIX } from "@aquapilot/contract/wire";
import { Button, SpinLoading } from "antd-mobile";
import { CameraOutline, CheckCircleFill, PictureOutline } from "antd-mobile-icons";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { shrinkImage } from "../../../shared/api/upload.ts";
import { uploadFile } from "../../../shared/api/upload-file.ts";
import { goBack, useRouteParams } from "../../../shared/navigation/index.ts";
import { DeviceImage } from "../../../shared/ui/device-image.tsx";
import { PageShell, StateBlock, toast } from "../../../shared/ui/index.ts";
import { useDevice } from "../api/get-device.ts";
import { useModelImages } from "../api/get-model-images.ts";
import { useUpdateDeviceImage } from "../api/update-device-image.ts";
import type { DeviceParams } from "../params.ts";
import "../device-settings.css";

/**
 * DeviceImage (spec §2 /DeviceImage): the current picture, the owner's own photos and the images of the device's
 * model (get-images-by-device-mac, main image first). "Upload a photo" shrinks the picture to 1024 px and uploads it
 * (contract uploadFile, multipart); the chosen picture is saved with `update-device-image` (the server accepts only
 * the model's pictures or the caller's own uploads).
 */
export function DeviceImageScreen() {
  const { t } = useTranslation();
  const { deviceId } = useRouteParams<DeviceParams>();
  const device = useDevice(deviceId);
  const images = useModelImages(device.data?.mac);
  const update = useUpdateDeviceImage();
  const [chosen, setChosen] = useState<string | null>(null);
  const [uploads, setUploads] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (device.data && chosen === null) setChosen(device.data.image);
  }, [device.data, chosen]);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    try {
      const blob = await shrinkImage(file, 1024, 5 * 1024 * 1024);
      const name = blob === file ? file.name : "device.jpg";
      const { fileUrl } = await uploadFile(blob, name);
      setUploads((list) => [fileUrl, ...list]);
      setChosen(fileUrl);
      toast(t("deviceImage.uploaded"));
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

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
  // The owner's photos: uploaded here, or the current picture when it is an upload.
  const current = device.data?.image;
  const own = current?.startsWith(FILE_UPLOAD_PREFIX) && !uploads.includes(current) ? [...uploads, current] : uploads;
  // Each choice is named by its place ("Picture 2", "Your photo 1") and says whether it is the one chosen.
  const option = (name: "option" | "ownOption") => (image: string, index: number) => (
    <button
      type="button"
      key={image}
      className={`ds-image ${chosen === image ? "ds-image--selected" : ""}`}
      onClick={() => setChosen(image)}
      aria-label={t(`deviceImage.${name}`, { position: index + 1 })}
      aria-pressed={chosen === image}
      data-testid="device-image-option"
      data-image={image}
      data-selected={chosen === image ? "true" : "false"}
    >
      <DeviceImage image={image} />
      {chosen === image ? <CheckCircleFill className="ds-image__check" /> : null}
    </button>
  );
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
      <div className="ds-group__title">{t("deviceImage.yours")}</div>
      <div className="ds-images" data-testid="device-image-own">
        {own.map(option("ownOption"))}
        <button
          type="button"
          className="ds-image ds-image--upload"
          onClick={() => fileInput.current?.click()}
          disabled={uploading}
          data-testid="device-image-upload"
        >
          {uploading ? <SpinLoading color="primary" /> : <CameraOutline />}
          <span>{t("deviceImage.upload")}</span>
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          hidden
          onChange={(e) => void onFile(e.target.files?.[0])}
          data-testid="device-image-file"
        />
      </div>
      <p className="ds-note">{t("deviceImage.uploadHint")}</p>
      <div className="ds-group__title">{t("deviceImage.pick")}</div>
      {images.isPending && device.data ? (
        <StateBlock icon={<SpinLoading color="primary" />} title={t("common.loading")} />
      ) : list.length === 0 ? (
        <StateBlock testId="device-image-empty" icon={<PictureOutline />} title={t("deviceImage.none")} />
      ) : (
        <div className="ds-images" data-testid="device-image-list">
          {list.map(option("option"))}
        </div>
      )}
    </PageShell>
  );
}
