import type { AuthService } from "../auth/auth-service.ts";
import type { CodeService } from "../auth/verification-codes.ts";
import type { Bus } from "../bus.ts";
import type { AppConfig } from "../config.ts";
import type { Db } from "../db/index.ts";
import type { Notifier } from "../notify/index.ts";
import type { DeviceCommandPort } from "../ports.ts";
import type { Guards } from "../security/limits.ts";

/**
 * What services need, built once in buildApp and handed to each module's routes: the server's shared infrastructure
 * only. A service a module owns (the push service, the message centre) is not part of it: buildApp hands it to the
 * routes that use it, so this file imports no module and no module's import of it can close a circle.
 */
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
  /** The clock; tests move it. */
  now: () => Date;
}
