import { MESSAGE_TYPES, type TMessage } from "@aquapilot/contract/wire";
import { formatDate } from "../../shared/ui/index.ts";

/**
 * How a message's time reads in a list row (local time): "HH:mm" today, "yyyy-MM-dd HH:mm" on other days (spec §9
 * date formats). An unparsable time gives "".
 */
export function formatMessageTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const sameDay =
    date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate();
  return sameDay ? formatDate(date, "yyyy-MM-dd HH:mm").slice(11) : formatDate(date, "yyyy-MM-dd HH:mm");
}

/** The visual kind of a message: a device alarm, a device notice or a platform announcement. */
export type MessageKind = "alarm" | "notice" | "announcement";

/** The kind of a message from its type (1 alarm, 2 notice, 3 announcement). */
export function messageKind(message: Pick<TMessage, "type">): MessageKind {
  if (message.type === MESSAGE_TYPES.deviceAlarm) return "alarm";
  if (message.type === MESSAGE_TYPES.deviceNotice) return "notice";
  return "announcement";
}

/** Where a device message leads: the Device screen's params, or null for announcements and incomplete messages. */
export function deviceTarget(
  message: Pick<TMessage, "deviceId" | "familyId">,
): { deviceId: string; familyId: string } | null {
  return message.deviceId && message.familyId ? { deviceId: message.deviceId, familyId: message.familyId } : null;
}
