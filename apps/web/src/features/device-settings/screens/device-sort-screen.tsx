import type { TFamilyDevice } from "@aquapilot/contract/wire";
import { Button, SpinLoading } from "antd-mobile";
import { DownOutline, UnorderedListOutline, UpOutline } from "antd-mobile-icons";
import { type PointerEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { useFamilyDevices } from "../../../shared/api/family-devices.ts";
import { goBack, useRouteParams } from "../../../shared/navigation/index.ts";
import { getItem } from "../../../shared/storage/index.ts";
import { PageShell, StateBlock, toast } from "../../../shared/ui/index.ts";
import { useUpdateDeviceSort } from "../api/update-device-sort.ts";
import type { DeviceSortParams } from "../params.ts";
import { dropIndex, moveById, moveItem, orderChanged } from "../sort-moves.ts";
import "../device-settings.css";

/** A drag in progress: which row, where it started, how far the pointer moved (px), the row height (px). */
interface Drag {
  id: string;
  start: number;
  startY: number;
  dy: number;
  rowHeight: number;
  pointerId: number;
}

/**
 * DeviceSort (spec §2 /DeviceSort "edit order"): the household's devices in their order; a row moves by dragging its
 * handle (pointer events — antd-mobile has no drag and drop) or with the up/down buttons; Save sends the whole order
 * with `update-device-sort`, kept per household.
 */
export function DeviceSortScreen() {
  const { t } = useTranslation();
  const params = useRouteParams<DeviceSortParams>();
  const familyId = params.familyId ?? getItem("family")?.id ?? null;
  const devices = useFamilyDevices(familyId);
  const save = useUpdateDeviceSort();
  const [order, setOrder] = useState<TFamilyDevice[]>([]);
  const [drag, setDrag] = useState<Drag | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (devices.data) setOrder(devices.data);
  }, [devices.data]);

  const original = (devices.data ?? []).map((d) => d.id);
  const ids = order.map((d) => d.id);
  const changed = orderChanged(original, ids);

  const onSave = async () => {
    if (!familyId || !changed) return goBack();
    try {
      await save.mutateAsync({ familyId, deviceIds: ids });
      toast(t("deviceSort.saved"));
      goBack();
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  const startDrag = (e: PointerEvent<HTMLButtonElement>, id: string, index: number) => {
    const row = (e.currentTarget as HTMLElement).closest(".ds-sort__row") as HTMLElement | null;
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ id, start: index, startY: e.clientY, dy: 0, rowHeight: row?.offsetHeight ?? 60, pointerId: e.pointerId });
  };
  const moveDrag = (e: PointerEvent<HTMLButtonElement>) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    setDrag({ ...drag, dy: e.clientY - drag.startY });
  };
  const endDrag = (e: PointerEvent<HTMLButtonElement>) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const to = dropIndex(drag.start, e.clientY - drag.startY, drag.rowHeight, order.length);
    setOrder((list) => moveItem(list, drag.start, to));
    setDrag(null);
  };

  // While dragging, the rows between show where the dragged one will land.
  const target = drag ? dropIndex(drag.start, drag.dy, drag.rowHeight, order.length) : -1;
  const shift = (index: number): number => {
    if (!drag || index === drag.start) return 0;
    if (drag.start < index && index <= target) return -drag.rowHeight;
    if (target <= index && index < drag.start) return drag.rowHeight;
    return 0;
  };

  return (
    <PageShell
      title={t("routes.DeviceSort")}
      right={<span data-testid="device-sort-save-top">{t("deviceSort.save")}</span>}
      onRight={() => void onSave()}
      testId="device-sort-screen"
      className="ds-page"
      footer={
        <div className="ds-footer">
          <Button
            block
            color="primary"
            shape="rounded"
            disabled={!changed}
            loading={save.isPending}
            onClick={() => void onSave()}
            data-testid="device-sort-save"
          >
            {t("deviceSort.save")}
          </Button>
        </div>
      }
    >
      <p className="ds-note">{t("deviceSort.hint")}</p>
      {devices.isPending && familyId ? (
        <StateBlock icon={<SpinLoading color="primary" />} title={t("common.loading")} />
      ) : order.length === 0 ? (
        <StateBlock testId="device-sort-empty" icon={<UnorderedListOutline />} title={t("deviceSort.empty")} />
      ) : (
        <div className="ds-sort" ref={listRef} data-testid="device-sort-list">
          {order.map((d, index) => {
            const dragging = drag?.id === d.id;
            return (
              <div
                key={d.id}
                className={`ds-sort__row ${dragging ? "ds-sort__row--dragging" : ""}`}
                style={{
                  transform: `translateY(${dragging ? (drag?.dy ?? 0) : shift(index)}px)`,
                  transition: drag && !dragging ? "transform 150ms" : undefined,
                }}
                data-testid="device-sort-row"
                data-device-id={d.id}
              >
                <button
                  type="button"
                  className="ds-sort__handle"
                  aria-label={t("deviceSort.drag")}
                  onPointerDown={(e) => startDrag(e, d.id, index)}
                  onPointerMove={moveDrag}
                  onPointerUp={endDrag}
                  onPointerCancel={() => setDrag(null)}
                  data-testid="device-sort-handle"
                >
                  <UnorderedListOutline />
                </button>
                <span className="ds-sort__index">{index + 1}</span>
                <span className="ds-sort__name">{d.name}</span>
                <button
                  type="button"
                  className="ds-sort__move"
                  aria-label={t("deviceSort.moveUp")}
                  disabled={index === 0}
                  onClick={() => setOrder((list) => moveById(list, d.id, -1))}
                  data-testid="device-sort-up"
                >
                  <UpOutline />
                </button>
                <button
                  type="button"
                  className="ds-sort__move"
                  aria-label={t("deviceSort.moveDown")}
                  disabled={index === order.length - 1}
                  onClick={() => setOrder((list) => moveById(list, d.id, 1))}
                  data-testid="device-sort-down"
                >
                  <DownOutline />
                </button>
              </div>
            );
          })}
        </div>
      )}
    </PageShell>
  );
}
