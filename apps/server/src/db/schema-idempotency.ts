/**
 * An idempotency key (table `idempotency_keys`, migration 0010; http/idempotency.ts). A row without a response is a
 * request still running (or abandoned by a crash: taken over after {@link IDEMPOTENCY_ABANDONED_MS}).
 */
export interface IdempotencyKeysTable {
  /** users.id of the caller, or "anonymous" for calls without a user (registration). */
  caller: string;
  /** The client's `Idempotency-Key` header, 1–128 printable ASCII characters. */
  key: string;
  /** SHA-256 (hex) of method, route, path values, query and body of the first request. */
  fingerprint: string;
  /** When the first request arrived, ISO 8601 UTC. */
  created_at: string;
  /** The HTTP status of the first answer; null while it runs. */
  response_status: number | null;
  /** The first answer's body (the ABP envelope, JSON text); null while it runs. */
  response_body: string | null;
}

/** Table types of idempotency (joined into the server's `Database`). */
export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}
