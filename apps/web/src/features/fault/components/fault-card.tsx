import type { TFault } from "@aquapilot/contract/wire";
import { Button, Tag } from "antd-mobile";
import { EditSOutline, QuestionCircleOutline, RightOutline } from "antd-mobile-icons";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { adviceKeys, faultCause, faultTimeParts, localTime, rangeEnd } from "../logic/fault.ts";

/** What the card's owner lets the user do (omitted actions are not shown). */
export interface FaultCardActions {
  /** Sends the reopen command (only offered for an open close the valve takes remotely). */
  onReopen?: (fault: TFault) => void;
  /** True while this card's reopen runs (the button shows busy and is disabled). */
  reopening?: boolean;
  /** Any reopen is running (other cards' buttons are disabled meanwhile). */
  busy?: boolean;
  onHelp?: (fault: TFault) => void;
  onRequestService?: (fault: TFault) => void;
}

/**
 * The short name of a fault: the close reason's name of spec §3 (the device screen's `fault.reason.*`, so the app
 * names a cause the same everywhere), "Close reason N" for an unlisted code, the §8 label "Device offline", or
 * "Reports not accepted" when the cloud refuses the device's reports.
 */
export function faultTitle(t: TFunction, fault: Pick<TFault, "kind" | "closeReason">): string {
  if (faultCause(fault) === "offline") return t("fault.label.deviceOffline");
  if (faultCause(fault) === "reports-refused") return t("fault.label.reportsRefused");
  return t(`fault.reason.${fault.closeReason}` as "fault.reason.257", {
    defaultValue: t("fault.reason.unknown", { code: fault.closeReason }),
  });
}

/**
 * One fault the owner can act on: its §8 label and whether it is open, the device (and household when the list spans
 * several), when it happened in the phone's local time, the cause in plain words, what to do (every step while open;
 * what to do if it happens again once resolved), and the actions: reopen the water (the command where the valve takes
 * one, otherwise the instruction to press the valve button), the matching help article and a service request.
 * Test id `fault-current` for an open fault and `fault-recent` for a resolved one, with the fault's data attributes.
 */
export function FaultCard({
  fault,
  showFamily,
  actions,
}: {
  fault: TFault;
  showFamily: boolean;
  actions: FaultCardActions;
}) {
  const { t } = useTranslation();
  const cause = faultCause(fault);
  const title = faultTitle(t, fault);
  const when = faultTimeParts(fault);
  const whenText =
    when.key === "since"
      ? t("faults.time.since", { time: localTime(when.start as Date) })
      : when.key === "range"
        ? t("faults.time.range", {
            start: localTime(when.start as Date),
            end: rangeEnd(when.start as Date, when.end as Date),
          })
        : when.key === "clearedUnknown"
          ? t("faults.time.clearedUnknown", { start: localTime(when.start as Date) })
          : t("faults.time.unknown");
  const closeOpen = fault.open && fault.kind === "close";
  return (
    <article
      className={`faults-card${fault.open ? " faults-card--open" : ""}`}
      data-testid={fault.open ? "fault-current" : "fault-recent"}
      data-fault-id={fault.id}
      data-device-id={fault.deviceId}
      data-kind={fault.kind}
      data-close-reason={fault.closeReason ?? ""}
      data-label={fault.label}
      data-open={String(fault.open)}
      data-started-at={fault.startedAt ?? ""}
      data-cleared-at={fault.clearedAt ?? ""}
    >
      <header className="faults-card__top">
        <span className="faults-card__tags">
          <Tag
            color={fault.open && fault.kind === "close" ? "danger" : fault.open ? "warning" : "default"}
            fill="outline"
          >
            {t(`fault.label.${fault.label}`)}
          </Tag>
          <Tag color={fault.open ? "danger" : "success"} fill="solid" data-testid="fault-status">
            {fault.open ? t("faults.status.open") : t("faults.status.cleared")}
          </Tag>
        </span>
      </header>
      <div className="faults-card__device" data-testid="fault-device">
        <span className="faults-card__device-name">{fault.deviceName}</span>
        {showFamily ? <span className="faults-card__family">· {fault.familyName}</span> : null}
      </div>
      <time className="faults-card__when" dateTime={fault.startedAt ?? undefined} data-testid="fault-time">
        {whenText}
      </time>
      <h3 className="faults-card__title">{title}</h3>
      <p className="faults-card__cause" data-testid="fault-cause">
        {t(`faults.cause.${cause}`, { code: fault.closeReason ?? "" })}
      </p>
      {fault.open ? (
        <section className="faults-card__advice" data-testid="fault-advice">
          <div className="faults-card__advice-title">{t("faults.whatToDo")}</div>
          <ol>
            {adviceKeys(cause).map((key) => (
              <li key={key}>{t(key as "faults.steps.513.1")}</li>
            ))}
          </ol>
        </section>
      ) : (
        <p className="faults-card__after" data-testid="fault-advice">
          <span className="faults-card__advice-title">{t("faults.ifAgain")}</span> {t(`faults.after.${cause}`)}
        </p>
      )}
      {closeOpen && fault.reopen === "command" && actions.onReopen ? (
        <Button
          block
          shape="rounded"
          color="primary"
          loading={actions.reopening}
          disabled={actions.busy}
          onClick={() => actions.onReopen?.(fault)}
          data-testid="fault-reopen"
        >
          {t("faults.reopen.action")}
        </Button>
      ) : null}
      {closeOpen && fault.reopen === "button" ? (
        <div className="faults-card__valve" data-testid="fault-reopen-at-valve">
          {t("faults.reopen.atValve")}
        </div>
      ) : null}
      <footer className="faults-card__links">
        {actions.onHelp ? (
          <button
            type="button"
            className="faults-card__link"
            onClick={() => actions.onHelp?.(fault)}
            data-testid="fault-help"
            data-article-id={fault.articleId}
          >
            <QuestionCircleOutline />
            <span>{t("faults.help")}</span>
            <RightOutline className="faults-card__chevron" />
          </button>
        ) : null}
        {actions.onRequestService ? (
          <button
            type="button"
            className="faults-card__link"
            onClick={() => actions.onRequestService?.(fault)}
            data-testid="fault-request-service"
          >
            <EditSOutline />
            <span>{t("faults.requestService")}</span>
            <RightOutline className="faults-card__chevron" />
          </button>
        ) : null}
      </footer>
    </article>
  );
}
