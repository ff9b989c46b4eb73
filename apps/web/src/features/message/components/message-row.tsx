import type { TMessage } from "@aquapilot/contract/wire";
import { BellOutline, ExclamationTriangleOutline, SoundOutline } from "antd-mobile-icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatMessageTime, type MessageKind, messageKind } from "../format.ts";

const ICONS: Record<MessageKind, ReactNode> = {
  alarm: <ExclamationTriangleOutline />,
  notice: <BellOutline />,
  announcement: <SoundOutline />,
};

/** The icon of a message kind in its tinted circle. */
export function MessageIcon({ message }: { message: Pick<TMessage, "type"> }) {
  const kind = messageKind(message);
  return <span className={`message-icon message-icon--${kind}`}>{ICONS[kind]}</span>;
}

/**
 * One row of the message centre: kind icon, title (bold while unread) with the unread dot, a one-line excerpt, the
 * device name and the time. Test ids: `message-row` (data-message-id, data-read), `message-row-unread`,
 * `message-row-device`, `message-row-time`.
 */
export function MessageRow({ message, onOpen }: { message: TMessage; onOpen: (message: TMessage) => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`message-row ${message.isRead ? "" : "message-row--unread"}`}
      onClick={() => onOpen(message)}
      data-testid="message-row"
      data-message-id={message.id}
      data-read={message.isRead}
    >
      <MessageIcon message={message} />
      <span className="message-row__body">
        <span className="message-row__top">
          <span className="message-row__title">{message.title}</span>
          {message.isRead ? null : (
            <span
              className="message-row__dot"
              data-testid="message-row-unread"
              role="img"
              aria-label={t("message.unread")}
            />
          )}
        </span>
        <span className="message-row__excerpt">{message.content}</span>
        <span className="message-row__meta">
          {message.deviceName ? (
            <span className="message-row__device" data-testid="message-row-device">
              {message.deviceName}
            </span>
          ) : (
            <span className="message-row__device message-row__device--platform">{t("message.platform")}</span>
          )}
          <span className="message-row__time" data-testid="message-row-time">
            {formatMessageTime(message.creationTime)}
          </span>
        </span>
      </span>
    </button>
  );
}
