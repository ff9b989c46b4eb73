/**
 * Table types of the after-sale module (joined into {@link import("./schema.ts").Database}); migrations 0007, 0021.
 * Conventions of schema.ts: text ids, ISO 8601 UTC text times, 0/1 booleans, JSON as text.
 */

/**
 * An after-sales request (spec §3 "After-sales request: device, description, handled or unhandled").
 * `device_id` and `family_id` are plain text, not foreign keys, and the device's name is copied: deleting or unbinding
 * the device or deleting the household keeps old requests readable.
 */
export interface AfterSaleRequestsTable {
  id: string;
  /** The owner who filed it (users are anonymised, never removed, so the id stays valid). */
  user_id: string;
  device_id: string;
  /** The device's name when the request was filed. */
  device_name: string;
  family_id: string;
  description: string;
  /** JSON array of upload paths (`/files/…`) owned by `user_id`. */
  photos_json: string;
  contact_phone: string | null;
  /** 0 unhandled, 1 handled by the service team (operator CLI). */
  handled: number;
  handled_time: string | null;
  /** The service team's answer. */
  reply: string | null;
  /** Frozen ZDiagnostics snapshot (JSON), attached with the owner's consent. */
  diagnostics_json: string | null;
  creation_time: string;
  last_modification_time: string | null;
}

/** The tables of this part of the schema. */
export interface AfterSaleTables {
  after_sale_requests: AfterSaleRequestsTable;
}
