import type { AuthService } from "../auth/auth-service.ts";
import type { CodeService } from "../auth/verification-codes.ts";
import type { Bus } from "../bus.ts";
import type { AppConfig } from "../config.ts";
import type { Db } from "../db/index.ts";
import type { Notifier } from "../notify/index.ts";
import type { DeviceCommandPort } from "../ports.ts";
import type { Guards } from "../security/limits.ts";
import type { MessageCenter } from "./message/index.ts";
import type { PushService } from "./push/index.ts";

/** What services need, built once in buildApp and handed to each module's routes. */
export interface AppContext {
  config: AppConfig;
  db: Db;
  bus: Bus;
  devices: DeviceCommandPort;
  auth: AuthService;
  codes: CodeService;
  notifier: Notifier;
  /**
   * Rate limits and the sign-in lockout of the HTTP API (security/limits.ts). Always set by buildApp;
   * absent only where services are called without HTTP (data-layer tests).
   */
  guards?: Guards;
  /** Push bindings and delivery (JPush, Web Push, outbox). Always set by buildApp. */
  push?: PushService;
  /** The message center: stores, publishes (hub 2) and pushes messages. Always set by buildApp. */
  messages?: MessageCenter;
  /** The clock; tests move it. */
  now: () => Date;
}
