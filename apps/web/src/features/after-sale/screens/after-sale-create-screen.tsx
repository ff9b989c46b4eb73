import type { TAfterSale } from "@aquapilot/contract/wire";
import { Button, Skeleton, Switch, Tag } from "antd-mobile";
import { ExclamationCircleOutline, MessageOutline } from "antd-mobile-icons";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { imageUrl } from "../../../shared/api/client.ts";
import { ApiError, errorMessage } from "../../../shared/api/errors.ts";
import { uploadFile } from "../../../shared/api/upload-file.ts";
import { goBack, navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import {
  confirmDialog,
  formatDate,
  PageShell,
  StateBlock,
  TextField,
  toast,
  useSingleFlight,
} from "../../../shared/ui/index.ts";
import { useCreateAfterSale } from "../api/create-after-sale.ts";
import { useDeleteAfterSale } from "../api/delete-after-sale.ts";
import { useAfterSale } from "../api/get-after-sale.ts";
import { useMyDevices } from "../api/get-my-devices.ts";
import { preparePhoto } from "../api/prepare-photo.ts";
import { useUpdateAfterSale } from "../api/update-after-sale.ts";
import { DeviceChoice } from "../components/device-choice.tsx";
import { DiagnosticsSummary } from "../components/diagnostics-summary.tsx";
import { PhotoGrid } from "../components/photo-grid.tsx";
import { DESCRIPTION_MAX, draftProblem, type PhotoItem, photosThatFit, uploadedPaths } from "../rules.ts";
import "../after-sale.css";

/**
 * Navigation params of AfterSaleCreate: `id` edits (or, once handled, shows) a request; `deviceId` preselects one;
 * `description` and `attachDiagnostics` pre-fill a new request (the fault list's "request service").
 */
export interface AfterSaleCreateParams {
  id?: string;
  deviceId?: string;
  description?: string;
  attachDiagnostics?: boolean;
}

/**
 * /AfterSaleCreate (spec §2 Other): a new after-sales request — the device (of any of the caller's
 * households), a description, up to 6 photos uploaded one by one, an optional contact phone and the owner's consent to
 * attach the device's diagnostics (recent events, 30 days of usage, firmware version). With `{id}` the same form
 * edits the request while it is unhandled (save or withdraw); a handled request shows read-only with the service
 * team's reply.
 */
export function AfterSaleCreateScreen() {
  const { id, deviceId, description, attachDiagnostics } = useRouteParams<AfterSaleCreateParams>();
  return id ? (
    <AfterSaleExisting id={id} />
  ) : (
    <AfterSaleForm
      initialDeviceId={deviceId ?? null}
      initialDescription={typeof description === "string" ? description.slice(0, DESCRIPTION_MAX) : ""}
      initialDiagnostics={attachDiagnostics === true}
    />
  );
}

/** Loads the request of `{id}` and shows the edit form (unhandled) or the read-only view (handled). */
function AfterSaleExisting({ id }: { id: string }) {
  const { t } = useTranslation();
  const request = useAfterSale(id);
  if (request.isPending) {
    return (
      <PageShell title={t("afterSale.editTitle")} testId="after-sale-create-screen">
        <div className="after-sale-card">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={4} animated />
        </div>
      </PageShell>
    );
  }
  if (!request.data) {
    const gone = request.error instanceof ApiError && (request.error.status === 404 || request.error.status === 403);
    return (
      <PageShell title={t("afterSale.editTitle")} testId="after-sale-create-screen">
        <StateBlock
          testId="after-sale-error"
          icon={<ExclamationCircleOutline />}
          title={gone ? t("afterSale.notFound") : t("errors.requestFailed")}
        />
      </PageShell>
    );
  }
  return request.data.handled ? <AfterSaleView request={request.data} /> : <AfterSaleForm existing={request.data} />;
}

let photoSeq = 0;
const newPhotoKey = () => {
  photoSeq += 1;
  return `photo-${Date.now().toString(36)}-${photoSeq}`;
};

/** The photos of the form with their uploads (each picked photo is prepared and uploaded at once). */
function usePhotoUploads(initial: readonly string[]) {
  const { t } = useTranslation();
  const [photos, setPhotos] = useState<PhotoItem[]>(() =>
    initial.map((path) => ({ key: newPhotoKey(), preview: imageUrl(path) ?? path, path, status: "done" })),
  );
  const count = useRef(photos.length);
  count.current = photos.length;
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const update = (key: string, patch: Partial<PhotoItem>) =>
    alive.current && setPhotos((list) => list.map((p) => (p.key === key ? { ...p, ...patch } : p)));

  const add = (files: File[]) => {
    const fit = photosThatFit(count.current, files.length);
    if (fit < files.length) toast(t("afterSale.photoLimit"));
    const picked = files.slice(0, fit).map((file) => ({
      file,
      item: { key: newPhotoKey(), preview: URL.createObjectURL(file), path: null, status: "uploading" } as PhotoItem,
    }));
    count.current += picked.length;
    setPhotos((list) => [...list, ...picked.map((p) => p.item)]);
    for (const { file, item } of picked) {
      void (async () => {
        try {
          const blob = await preparePhoto(file);
          const uploaded = await uploadFile(blob, blob === file ? file.name || "photo.jpg" : "photo.jpg");
          update(item.key, { path: uploaded.fileUrl, status: "done" });
        } catch (err) {
          update(item.key, { status: "failed" });
          toast(errorMessage(err, t("afterSale.uploadFailed")));
        }
      })();
    }
  };

  const remove = (key: string) =>
    setPhotos((list) => {
      const gone = list.find((p) => p.key === key);
      if (gone?.preview.startsWith("blob:")) URL.revokeObjectURL(gone.preview);
      return list.filter((p) => p.key !== key);
    });

  return { photos, add, remove };
}

/** The request form: new (with the device choice) or editing an unhandled request. */
function AfterSaleForm({
  existing,
  initialDeviceId = null,
  initialDescription = "",
  initialDiagnostics = false,
}: {
  existing?: TAfterSale;
  initialDeviceId?: string | null;
  initialDescription?: string;
  initialDiagnostics?: boolean;
}) {
  const { t } = useTranslation();
  const editing = Boolean(existing);
  const devices = useMyDevices(!editing);
  const [deviceId, setDeviceId] = useState<string | null>(existing?.deviceId ?? initialDeviceId);
  const [description, setDescription] = useState(existing?.description ?? initialDescription);
  const [contactPhone, setContactPhone] = useState(existing?.contactPhone ?? "");
  const [attachDiagnostics, setAttachDiagnostics] = useState(
    existing ? existing.diagnostics !== null : initialDiagnostics,
  );
  const { photos, add, remove } = usePhotoUploads(existing?.photos ?? []);
  const create = useCreateAfterSale();
  const update = useUpdateAfterSale();
  const del = useDeleteAfterSale();
  // One submit or withdrawal at a time: a double tap is dropped before the button shows as busy, so no request is
  // filed twice.
  const flight = useSingleFlight();
  const busy = flight.running;

  // A single device needs no choosing.
  const list = useMemo(() => devices.data ?? [], [devices.data]);
  useEffect(() => {
    if (!editing && !deviceId && list.length === 1) setDeviceId(list[0].device.id);
  }, [editing, deviceId, list]);

  const submit = () =>
    flight.run(async () => {
      const problem = draftProblem({ deviceId, description, photos });
      if (problem) {
        toast(t(`afterSale.errors.${problem}`));
        return;
      }
      const body = {
        description: description.trim(),
        photos: uploadedPaths(photos),
        contactPhone: contactPhone.trim() || null,
        attachDiagnostics,
      };
      try {
        if (existing) await update.mutateAsync({ id: existing.id, body });
        else await create.mutateAsync({ ...body, deviceId: deviceId as string });
        toast(existing ? t("afterSale.saved") : t("afterSale.submitted"));
        goBack();
      } catch (err) {
        toast(errorMessage(err, t("errors.requestFailed")));
      }
    });

  const withdraw = () =>
    flight.run(async () => {
      if (!existing) return;
      if (
        !(await confirmDialog({
          content: t("afterSale.deleteConfirm"),
          confirmText: t("afterSale.delete"),
          danger: true,
        }))
      )
        return;
      try {
        await del.mutateAsync(existing.id);
        toast(t("afterSale.deleted"));
        goBack();
      } catch (err) {
        toast(errorMessage(err, t("errors.requestFailed")));
      }
    });

  const length = description.trim().length;

  return (
    <PageShell
      title={editing ? t("afterSale.editTitle") : t("afterSale.newTitle")}
      testId="after-sale-create-screen"
      className="after-sale-page"
      footer={
        <div className="after-sale-footer">
          {editing ? (
            <Button
              shape="rounded"
              color="danger"
              fill="outline"
              onClick={() => void withdraw()}
              disabled={busy}
              data-testid="after-sale-delete"
            >
              {t("afterSale.delete")}
            </Button>
          ) : null}
          <Button
            block
            shape="rounded"
            color="primary"
            onClick={() => void submit()}
            loading={flight.running}
            disabled={busy}
            data-testid="after-sale-submit"
          >
            {editing ? t("afterSale.save") : t("afterSale.submit")}
          </Button>
        </div>
      }
    >
      {existing ? (
        <div className="after-sale-banner" data-testid="after-sale-status" data-handled="false">
          <Tag color="warning" fill="outline" round>
            {t("afterSale.status.unhandled")}
          </Tag>
          <span>{t("afterSale.editableHint")}</span>
        </div>
      ) : null}

      <section className="after-sale-card">
        <h2 className="after-sale-card__title">{t("afterSale.device")}</h2>
        {existing ? (
          <div className="after-sale-device-fixed" data-testid="after-sale-device-name">
            {existing.deviceName}
          </div>
        ) : devices.isPending ? (
          <Skeleton.Paragraph lineCount={2} animated />
        ) : list.length === 0 ? (
          <div className="after-sale-empty-devices" data-testid="after-sale-no-devices">
            <span>{t("afterSale.noDevices")}</span>
            <Button size="small" shape="rounded" color="primary" fill="outline" onClick={() => navigateTo(PATHS.Home)}>
              {t("afterSale.toHome")}
            </Button>
          </div>
        ) : (
          <DeviceChoice devices={list} value={deviceId} onChange={setDeviceId} />
        )}
      </section>

      <section className="after-sale-card">
        <h2 className="after-sale-card__title">{t("afterSale.description")}</h2>
        <div className="after-sale-textarea">
          <textarea
            value={description}
            onChange={(e) => setDescription(e.target.value.slice(0, DESCRIPTION_MAX))}
            placeholder={t("afterSale.descriptionPlaceholder")}
            rows={5}
            maxLength={DESCRIPTION_MAX}
            data-testid="after-sale-description"
          />
          <span className="after-sale-textarea__count">
            {length}/{DESCRIPTION_MAX}
          </span>
        </div>
      </section>

      <section className="after-sale-card">
        <h2 className="after-sale-card__title">
          {t("afterSale.photos")} <span className="after-sale-card__note">{t("afterSale.photosHint")}</span>
        </h2>
        <PhotoGrid photos={photos} onAdd={add} onRemove={remove} />
      </section>

      <section className="after-sale-card">
        <TextField
          label={t("afterSale.contactPhone")}
          value={contactPhone}
          onChange={setContactPhone}
          placeholder={t("afterSale.contactPhonePlaceholder")}
          type="tel"
          maxLength={32}
          testId="after-sale-contact"
        />
      </section>

      <section className="after-sale-card after-sale-consent">
        <div className="after-sale-consent__text">
          <div className="after-sale-consent__title">{t("afterSale.diagnostics.label")}</div>
          <div className="after-sale-consent__hint">{t("afterSale.diagnostics.hint")}</div>
        </div>
        <Switch
          checked={attachDiagnostics}
          onChange={setAttachDiagnostics}
          aria-label={t("afterSale.diagnostics.label")}
          data-testid="after-sale-diagnostics"
        />
      </section>
      {existing?.diagnostics ? (
        <section className="after-sale-card">
          <h2 className="after-sale-card__title">{t("afterSale.diagnostics.attached")}</h2>
          <DiagnosticsSummary diagnostics={existing.diagnostics} />
        </section>
      ) : null}
    </PageShell>
  );
}

/** A handled request, read-only, with the service team's reply. */
function AfterSaleView({ request }: { request: TAfterSale }) {
  const { t } = useTranslation();
  const photos: PhotoItem[] = request.photos.map((path, i) => ({
    key: `${i}`,
    preview: imageUrl(path) ?? path,
    path,
    status: "done",
  }));
  const handledTime = request.handledTime ? new Date(request.handledTime) : null;
  return (
    <PageShell title={t("afterSale.viewTitle")} testId="after-sale-view-screen" className="after-sale-page">
      <div className="after-sale-banner after-sale-banner--handled" data-testid="after-sale-status" data-handled="true">
        <Tag color="success" fill="outline" round>
          {t("afterSale.status.handled")}
        </Tag>
        {handledTime && !Number.isNaN(handledTime.getTime()) ? (
          <span>{formatDate(handledTime, "yyyy-MM-dd HH:mm")}</span>
        ) : null}
      </div>
      <section className="after-sale-card after-sale-reply" data-testid="after-sale-reply">
        <h2 className="after-sale-card__title">
          <MessageOutline /> {t("afterSale.reply")}
        </h2>
        <p>{request.reply || t("afterSale.noReply")}</p>
      </section>
      <section className="after-sale-card">
        <h2 className="after-sale-card__title">{t("afterSale.device")}</h2>
        <div className="after-sale-device-fixed" data-testid="after-sale-device-name">
          {request.deviceName}
        </div>
        <h2 className="after-sale-card__title">{t("afterSale.description")}</h2>
        <p className="after-sale-view__description" data-testid="after-sale-view-description">
          {request.description}
        </p>
        {photos.length > 0 ? <PhotoGrid photos={photos} readOnly /> : null}
        {request.contactPhone ? (
          <p className="after-sale-view__contact">
            {t("afterSale.contactPhone")}: {request.contactPhone}
          </p>
        ) : null}
      </section>
      {request.diagnostics ? (
        <section className="after-sale-card">
          <h2 className="after-sale-card__title">{t("afterSale.diagnostics.attached")}</h2>
          <DiagnosticsSummary diagnostics={request.diagnostics} />
        </section>
      ) : null}
    </PageShell>
  );
}
