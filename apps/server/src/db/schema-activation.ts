/**
 * A pairing code issued by device activation (table `device_activations`, migration 0009; docs/device-protocol.md
 * §13.4). The token itself is never stored.
 */
export interface DeviceActivationsTable {
  /** Random v4 id. */
  id: string;
  device_id: string;
  /** SHA-256 of the token (the part after "MAC:" of the pairing code), 64 lower-case hex digits; unique. */
  token_hash: string;
  /** ISO 8601 UTC. */
  created_at: string;
  /** ISO 8601 UTC; the code binds only before this instant. */
  expires_at: string;
  /** When the binding call consumed the code (ISO 8601 UTC); null while unused. */
  used_at: string | null;
  /** users.id of the administrator who bound with it; null while unused. */
  used_by: string | null;
}

/** Table types of the activation module (joined into the server's `Database`). */
export interface ActivationTables {
  device_activations: DeviceActivationsTable;
}
