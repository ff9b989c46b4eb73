/**
 * Production's checks of the hubs' messages, without zod: loaded by lazy-hub.ts with the SignalR client in a production
 * build, in place of the contract's zod schemas (hub-schemas.ts, development and tests).
 */
import type { TDeviceChangeMessage, TMessage } from "@aquapilot/contract/wire";
import type { HubChannelSpec } from "./hub-channel.ts";

type SchemaLike<T> = HubChannelSpec<T>["schema"];

/** What a hub message's field must be: a `typeof` name, `typeof` names with "null", or the allowed values. */
type FieldRule = string | readonly string[];

/**
 * A check of the fields the app reads from a hub message, in the shape of a schema's `safeParse`: each named field
 * must have one of the rule's `typeof` names ("null" for null), or, for a `values` rule, be one of those values.
 * Production's check (answers are validated by schema in development and tests only): the server speaks the same
 * contract, and a message without what the screens need is still dropped rather than shown half.
 * @param fields field name → rule, e.g. `{ deviceId: "string", familyId: ["string", "null"] }`.
 * @param values field name → allowed values, e.g. `{ kind: ["state", "online"] }`.
 */
export function productionCheck<T>(
  fields: Record<string, FieldRule>,
  values: Record<string, readonly unknown[]> = {},
): SchemaLike<T> {
  return {
    safeParse(value: unknown) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return { success: false, error: { message: "not an object" } };
      }
      const record = value as Record<string, unknown>;
      for (const [name, rule] of Object.entries(fields)) {
        const kind = record[name] === null ? "null" : typeof record[name];
        if (!(typeof rule === "string" ? [rule] : rule).includes(kind)) {
          return { success: false, error: { message: `${name}: expected ${rule}, got ${kind}` } };
        }
      }
      for (const [name, allowed] of Object.entries(values)) {
        if (!allowed.includes(record[name])) {
          return { success: false, error: { message: `${name}: ${String(record[name])} is not one of ${allowed}` } };
        }
      }
      return { success: true, data: value as T };
    },
  };
}

/** Production's checks of the hubs' messages: the fields of `TDeviceChangeMessage` and `TMessage` the app reads. */
export const PRODUCTION_CHECKS = {
  deviceChange: productionCheck<TDeviceChangeMessage>(
    { deviceId: "string", online: "boolean", station: ["number", "null"], lastReportTime: ["string", "null"] },
    { kind: ["state", "online", "event", "ack"] },
  ),
  message: productionCheck<TMessage>({
    id: "string",
    type: "number",
    title: "string",
    content: "string",
    isRead: "boolean",
    creationTime: "string",
    deviceId: ["string", "null"],
  }),
};
