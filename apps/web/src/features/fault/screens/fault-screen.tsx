import { PERMISSIONS, type TFault } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Skeleton } from "antd-mobile";
import { CheckCircleOutline, ExclamationCircleOutline } from "antd-mobile-icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { queryKeys } from "../../../shared/api/query-keys.ts";
import { usePermission } from "../../../shared/auth/permitted.tsx";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { confirmDialog, PageShell, StateBlock, toast, useSingleFlight } from "../../../shared/ui/index.ts";
import { reopenWater } from "../api/reopen-water.ts";
import { FaultCard, type FaultCardActions, faultTitle } from "../components/fault-card.tsx";
import { useLiveFaults } from "../hooks.ts";
import { faultCause, localTime, reopenWarningKey, splitFaults } from "../logic/fault.ts";
import "../fault.css";

/** Route params of /Fault: none for every device of the caller's households (My → Faults), or one device. */
export interface FaultParams {
  deviceId?: string;
  familyId?: string;
}

/**
 * /Fault (spec §2 Other): faults an owner can act on. Without a device — the My tab's "faults" — every
 * open and recent fault of the caller's households; with `{deviceId}` — the device screen's link — that device's. Open
 * faults first, then the last 30 days, newest first, each with the device, the local time, the cause in plain words,
 * what to do, the matching help article, "request service" (AfterSaleCreate with the device, a description and its
 * diagnostics) and, for an open close, "reopen water" (confirmed first; one command per tap, its id the Idempotency-Key)
 * or, when the device cannot hear it, the instruction to press the valve button. Live from hub 1.
 */
export function FaultScreen() {
  const { t } = useTranslation();
  const { deviceId } = useRouteParams<FaultParams>();
  const faults = useLiveFaults(deviceId || undefined);
  const queryClient = useQueryClient();
  const { access } = usePermission();
  // One reopen at a time: a double tap is dropped before the button shows busy (every submit happens once).
  const flight = useSingleFlight();
  const [reopening, setReopening] = useState<string | null>(null);

  const reopen = (fault: TFault) =>
    flight.run(async () => {
      const confirmed = await confirmDialog({
        title: t("faults.reopen.confirmTitle"),
        content: t(`faults.reopen.confirm.${reopenWarningKey(faultCause(fault))}`),
        confirmText: t("faults.reopen.confirmOk"),
      });
      if (!confirmed) return;
      setReopening(fault.id);
      try {
        const outcome = await reopenWater(fault.deviceId, globalThis.crypto.randomUUID());
        toast(outcome.status === "done" ? t("faults.reopen.done") : (outcome.message ?? t("faults.reopen.failed")));
      } catch (err) {
        toast(errorMessage(err, t("faults.reopen.failed")));
      } finally {
        setReopening(null);
        // The list (and the device screen's values) follow the valve's reset event on hub 1; ask again anyway.
        void queryClient.invalidateQueries({ queryKey: queryKeys.deviceAll });
      }
    });

  const requestService = (fault: TFault) => {
    const reason = faultTitle(t, fault);
    const time = fault.startedAt ? localTime(new Date(fault.startedAt)) : null;
    const description =
      time === null
        ? t("faults.service.noTime", { reason })
        : fault.kind === "offline"
          ? t("faults.service.offline", { time })
          : t("faults.service.close", { reason, time });
    navigateTo(PATHS.AfterSaleCreate, { deviceId: fault.deviceId, description, attachDiagnostics: true });
  };

  const actions: FaultCardActions = {
    onReopen: access(PERMISSIONS.deviceControl) === "allowed" ? (f) => void reopen(f) : undefined,
    busy: flight.running,
    onHelp: (f) => navigateTo(PATHS.Article, { id: f.articleId }),
    onRequestService: access(PERMISSIONS.afterSale) === "allowed" ? requestService : undefined,
  };

  const list = faults.data ?? [];
  const { open, recent } = splitFaults(list);
  const showFamily = new Set(list.map((f) => f.familyId)).size > 1;
  const section = (title: string, items: TFault[], testId: string) =>
    items.length === 0 ? null : (
      <section className="faults-section" data-testid={testId}>
        <h2 className="faults-section__title">{title}</h2>
        {items.map((f) => (
          <FaultCard
            key={f.id}
            fault={f}
            showFamily={showFamily}
            actions={{ ...actions, reopening: reopening === f.id }}
          />
        ))}
      </section>
    );

  return (
    <PageShell title={t("faults.title")} testId="fault-screen" className="faults-page">
      <div
        className="faults"
        data-testid="fault-list"
        data-count={list.length}
        data-scope={deviceId ? "device" : "all"}
      >
        {faults.isPending ? (
          <div className="faults-card">
            <Skeleton.Title animated />
            <Skeleton.Paragraph lineCount={4} animated />
          </div>
        ) : faults.isError && !faults.data ? (
          <StateBlock
            icon={<ExclamationCircleOutline />}
            title={t("faults.loadFailed")}
            text={errorMessage(faults.error, "")}
            action={
              <Button size="small" shape="rounded" onClick={() => void faults.refetch()}>
                {t("faults.retry")}
              </Button>
            }
            testId="fault-error"
          />
        ) : list.length === 0 ? (
          <StateBlock
            icon={<CheckCircleOutline />}
            title={t("faults.empty")}
            text={deviceId ? t("faults.emptyDeviceHint") : t("faults.emptyHint")}
            testId="fault-none"
          />
        ) : (
          <>
            {section(t("faults.openSection"), open, "fault-open-section")}
            {section(t("faults.recentSection"), recent, "fault-recent-section")}
          </>
        )}
      </div>
    </PageShell>
  );
}
