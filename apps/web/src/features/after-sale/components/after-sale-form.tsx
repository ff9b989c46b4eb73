import type { TAfterSale } from "@aquapilot/contract/wire";
import { Button, Skeleton, Switch, Tag } from "antd-mobile";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { goBack, navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { confirmDialog, PageShell, TextField, toast, useSingleFlight } from "../../../shared/ui/index.ts";
import { useCreateAfterSale } from "../api/create-after-sale.ts";
import { useDeleteAfterSale } from "../api/delete-after-sale.ts";
import { useMyDevices } from "../api/get-my-devices.ts";
import { useUpdateAfterSale } from "../api/update-after-sale.ts";
import { DESCRIPTION_MAX, draftProblem, uploadedPaths } from "../rules.ts";
import { usePhotoUploads } from "../use-photo-uploads.ts";
import { DeviceChoice } from "./device-choice.tsx";
import { DiagnosticsSummary } from "./diagnostics-summary.tsx";
import { PhotoGrid } from "./photo-grid.tsx";

/**
 * The AfterSaleCreate form (spec §2 Other): new, with the device choice (a single device is chosen at once; none →
 * a way Home), or editing an unhandled request `existing` (its device fixed, with Withdraw). Fields: description (at
 * most {@link DESCRIPTION_MAX} characters, counted), photos ({@link usePhotoUploads}), contact phone, consent to
 * attach the diagnostics. Submit checks the draft (rules.ts `draftProblem`, the problem as a toast), files or saves
 * the request and goes back with a toast; Withdraw asks first, deletes and goes back. The server's refusal shows as a
 * toast and keeps the form. `initial*` pre-fill a new request. Test ids: `after-sale-create-screen`,
 * `after-sale-status`, `after-sale-device-name`, `after-sale-no-devices`, `after-sale-description`,
 * `after-sale-contact`, `after-sale-diagnostics`, `after-sale-submit`, `after-sale-delete`.
 */
export function AfterSaleForm({
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
