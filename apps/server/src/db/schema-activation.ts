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

/**
 * A setup ticket (table `setup_tickets`, migration 0024; docs/device-protocol.md §13.4 "Setup tickets"). The ticket
 * itself is never stored.
 */
export interface SetupTicketsTable {
  /** Random v4 id. */
  id: string;
  /** SHA-256 of the ticket, 64 lower-case hex digits; unique. */
  ticket_hash: string;
  /** The household the ticket was created for (its creator administered it). */
  family_id: string;
  /** users.id of the creator: the only user the ticket answers. */
  created_by: string;
  /** ISO 8601 UTC. */
  created_at: string;
  /** ISO 8601 UTC; a module can take the ticket and its creator read the outcome only before this instant. */
  expires_at: string;
  /** The device that activated with the ticket (the first one only); null while waiting. */
  device_id: string | null;
  /** When that device activated with it (ISO 8601 UTC); null while waiting. */
  activated_at: string | null;
}

/** Table types of the activation module (joined into the server's `Database`). */
export interface ActivationTables {
  device_activations: DeviceActivationsTable;
  setup_tickets: SetupTicketsTable;
}
