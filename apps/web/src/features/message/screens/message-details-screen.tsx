import type { TMessage } from "@aquapilot/contract/wire";
import { Badge, Button, Skeleton, Tabs, Tag } from "antd-mobile";
import { CheckCircleOutline, ExclamationCircleOutline, MailOpenOutline, RightOutline } from "antd-mobile-icons";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../shared/api/errors.ts";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { badgeText, useUnreadMessageCount } from "../../../shared/realtime/unread.ts";
import { setItem } from "../../../shared/storage/index.ts";
import { formatDate, PageShell, StateBlock, toast } from "../../../shared/ui/index.ts";
import { PagedList, type PageRequest } from "../../../shared/ui/paged-list.tsx";
import { useMessageDetail } from "../api/get-message-detail.ts";
import { getUserMessagePage } from "../api/get-user-message-list.ts";
import { MESSAGE_FILTERS, type MessageFilter, messageKeys } from "../api/keys.ts";
import { useSetMessageAllRead } from "../api/set-message-all-read.ts";
import { useSetMessageRead } from "../api/set-message-read.ts";
import { MessageIcon, MessageRow } from "../components/message-row.tsx";
import { deviceTarget, messageKind } from "../format.ts";
import "../message.css";

/** Navigation params of MessageDetails: `id` opens one message; without it the message centre shows `filter`. */
export interface MessageDetailsParams {
  id?: string;
  filter?: MessageFilter;
}

/**
 * /MessageDetails (spec §2 Messages): without an `id` the message centre — tabs All / Read / Unread, "Mark all read",
 * the paged list of spec §4; with `{id}` one message, marked read when opened; a device message opens its device.
 */
export function MessageDetailsScreen() {
  const { id, filter } = useRouteParams<MessageDetailsParams>();
  return id ? <MessageView id={id} /> : <MessageCentre initialFilter={filter} />;
}

const itemKey = (m: TMessage) => m.id;

/** The tab last shown, so coming back from a message shows the same tab (memory only). */
let lastFilter: MessageFilter = "all";

/** The message centre (spec §2 "Message tab: filter all, read, unread; mark-all-read action"). */
function MessageCentre({ initialFilter }: { initialFilter?: MessageFilter }) {
  const { t } = useTranslation();
  const [filter, setFilterState] = useState<MessageFilter>(
    initialFilter && MESSAGE_FILTERS.includes(initialFilter) ? initialFilter : lastFilter,
  );
  const setFilter = (next: MessageFilter) => {
    lastFilter = next;
    setFilterState(next);
  };
  const unread = useUnreadMessageCount();
  const markAll = useSetMessageAllRead();
  const fetchPage = useCallback(
    (page: PageRequest, signal?: AbortSignal) => getUserMessagePage(filter, page, signal),
    [filter],
  );

  const markAllRead = async () => {
    if (markAll.isPending) return;
    if (unread.data === 0) {
      toast(t("message.nothingUnread"));
      return;
    }
    await markAll.mutateAsync();
    toast(t("message.allMarked"));
  };

  const open = (message: TMessage) => navigateTo(PATHS.MessageDetails, { id: message.id });
  const unreadText = badgeText(unread.data);

  return (
    <PageShell
      title={t("message.centre")}
      right={
        <span className="page__right-text" data-testid="message-mark-all-read">
          <CheckCircleOutline /> {t("message.markAllRead")}
        </span>
      }
      onRight={() => void markAllRead().catch(() => {})}
      testId="message-centre-screen"
      className="message-page"
    >
      <div className="message-tabs">
        <Tabs activeKey={filter} onChange={(key) => setFilter(key as MessageFilter)} stretch>
          {MESSAGE_FILTERS.map((f) => (
            <Tabs.Tab
              key={f}
              title={
                <span className="message-tabs__title" data-testid={`message-tab-${f}`} data-active={f === filter}>
                  {t(`message.filter.${f}`)}
                  {f === "unread" && unreadText ? (
                    <Badge content={unreadText} className="message-tabs__badge" data-testid="message-unread-count" />
                  ) : null}
                </span>
              }
            />
          ))}
        </Tabs>
      </div>
      <PagedList
        key={filter}
        queryKey={messageKeys.list(filter)}
        fetchPage={fetchPage}
        itemKey={itemKey}
        testId="message-list"
        renderItem={(m) => <MessageRow key={m.id} message={m} onOpen={open} />}
        empty={
          <StateBlock
            icon={<MailOpenOutline />}
            title={t(filter === "unread" ? "message.emptyUnread" : "message.empty")}
            text={t("message.emptyHint")}
          />
        }
      />
    </PageShell>
  );
}

/** One message; marks it read once loaded (spec §7 set-message-read). */
function MessageView({ id }: { id: string }) {
  const { t } = useTranslation();
  const detail = useMessageDetail(id);
  const markRead = useSetMessageRead();
  const marked = useRef<string | null>(null);
  const message = detail.data;

  useEffect(() => {
    if (!message || message.isRead || marked.current === message.id) return;
    marked.current = message.id;
    markRead.mutate([message.id]);
  }, [message, markRead]);

  const target = message ? deviceTarget(message) : null;
  const openDevice = () => {
    if (!message || !target) return;
    setItem("device", { id: target.deviceId, name: message.deviceName ?? undefined });
    navigateTo(PATHS.Device, target);
  };
  const gone = detail.error instanceof ApiError && (detail.error.status === 404 || detail.error.status === 403);

  return (
    <PageShell title={t("routes.MessageDetails")} testId="message-detail-screen" className="message-page">
      {detail.isPending ? (
        <div className="message-detail">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={4} animated />
        </div>
      ) : !message ? (
        <StateBlock
          testId="message-detail-error"
          icon={<ExclamationCircleOutline />}
          title={gone ? t("message.notFound") : t("errors.requestFailed")}
          action={
            gone ? null : (
              <Button color="primary" fill="outline" shape="rounded" onClick={() => void detail.refetch()}>
                {t("common.retry")}
              </Button>
            )
          }
        />
      ) : (
        <article className="message-detail" data-testid="message-detail" data-message-id={message.id}>
          <header className="message-detail__head">
            <MessageIcon message={message} />
            <div className="message-detail__heading">
              <Tag
                round
                fill="outline"
                color={messageKind(message) === "alarm" ? "danger" : "primary"}
                className="message-detail__tag"
                data-testid="message-detail-type"
              >
                {t(`message.kind.${messageKind(message)}`)}
              </Tag>
              <h1 className="message-detail__title" data-testid="message-detail-title">
                {message.title}
              </h1>
              <time className="message-detail__time" dateTime={message.creationTime}>
                {formatDate(new Date(message.creationTime), "yyyy-MM-dd HH:mm")}
              </time>
            </div>
          </header>
          <p className="message-detail__content" data-testid="message-detail-content">
            {message.content}
          </p>
          {target ? (
            <button
              type="button"
              className="message-detail__device"
              onClick={openDevice}
              data-testid="message-open-device"
            >
              <span className="message-detail__device-label">{t("message.device")}</span>
              <span className="message-detail__device-name">{message.deviceName ?? t("message.viewDevice")}</span>
              <span className="message-detail__device-go">
                {t("message.viewDevice")} <RightOutline />
              </span>
            </button>
          ) : null}
          {message.event === "after-sale-answered" ? (
            <button
              type="button"
              className="message-detail__device"
              onClick={() => navigateTo(PATHS.AfterSaleList, { tab: "handled" })}
              data-testid="message-open-after-sales"
            >
              <span className="message-detail__device-label">{t("message.afterSales")}</span>
              <span className="message-detail__device-go">
                {t("message.viewRequests")} <RightOutline />
              </span>
            </button>
          ) : null}
        </article>
      )}
    </PageShell>
  );
}
