import { randomUUID } from "node:crypto";
import {
  deviceTopic,
  type MqttChannel,
  normaliseMac,
  type ReconnectBackoff,
  reconnectDelayMs,
} from "@aquapilot/contract";
import mqtt, { type MqttClient } from "mqtt";
import { followBackoff } from "./backoff.ts";
import type { IotLogger } from "./logger.ts";

/** Topic the Mosquitto dynamic-security plugin reads its commands from. */
export const DYNSEC_TOPIC = "$CONTROL/dynamic-security/v1";
/** Topic the plugin answers on (every subscriber gets every answer: requests are told apart by correlationData). */
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;

/** Channels a device may publish to (docs/device-protocol.md §4). */
const DEVICE_PUBLISHES: MqttChannel[] = ["status", "state", "telemetry", "event", "ack"];
/** Channels a device may subscribe to (docs/device-protocol.md §4): commands and the cloud's receipts. */
const DEVICE_SUBSCRIBES: MqttChannel[] = ["cmd", "receipt"];

/** Retry policy of provisioning that failed: 1 s doubling to 60 s, jittered. */
const PROVISION_RETRY: ReconnectBackoff = { initialMs: 1000, maxMs: 60_000, factor: 2 };

/**
 * What the server tells the broker about devices, so no broker password file is written by hand: the account a
 * device connects with. Implemented by
 * {@link DynsecAccounts} for Mosquitto's dynamic-security plugin; the embedded broker checks the database itself and
 * needs nothing ({@link noBrokerAccounts}).
 */
export interface BrokerAccounts {
  /**
   * Gives the broker the device's account: username and client id = the MAC (12 upper-case hex digits), password =
   * its clear `secret`, and a role allowing only its own topics. Idempotent (an existing account gets the new
   * password and role). Never throws: when the broker is down or refuses, the request is kept in memory and retried
   * with backoff until it succeeds (a newer secret for the same MAC replaces the older one).
   * @returns true when the broker confirmed it, false when it is queued for a retry (or `mac` is not a MAC).
   */
  provision(mac: string, secret: string): Promise<boolean>;
  /** Devices waiting for a retry. */
  readonly pending: number;
  /** Stops retrying and disconnects; pending requests are dropped (logged by MAC). */
  close(): Promise<void>;
}

/** {@link BrokerAccounts} of a broker that needs no provisioning (the embedded one, or a "plain" external broker). */
export const noBrokerAccounts: BrokerAccounts = {
  provision: async () => true,
  pending: 0,
  close: async () => undefined,
};

/** Role name of a device's ACL in the dynamic-security plugin. */
export function deviceRoleName(mac: string): string {
  return `aquapilot-device-${normaliseMac(mac)}`;
}

/**
 * The ACLs of a device's role (docs/device-protocol.md §4): publishClientSend on its status, state, telemetry, event
 * and ack topics and subscribePattern on its cmd and receipt topics, all `allow`; everything else falls to the
 * plugin's defaults (publish and subscribe denied).
 */
export function deviceAcls(mac: string): Array<{ acltype: string; topic: string; priority: number; allow: boolean }> {
  return [
    ...DEVICE_PUBLISHES.map((c) => ({
      acltype: "publishClientSend",
      topic: deviceTopic(mac, c),
      priority: 0,
      allow: true,
    })),
    ...DEVICE_SUBSCRIBES.map((c) => ({
      acltype: "subscribePattern",
      topic: deviceTopic(mac, c),
      priority: 0,
      allow: true,
    })),
  ];
}

/** One answer of the plugin: `error` set when the command failed; `data` for get commands. */
export interface DynsecResponse {
  command: string;
  error?: string;
  data?: unknown;
  correlationData?: string;
}

/** Options of {@link DynsecAccounts.start}. */
export interface DynsecAccountsOptions {
  /** Broker URL (mqtt://host:port); credentials in the URL are used when username is not given. */
  url: string;
  username?: string;
  password?: string;
  /** Client id of the control connection (default `<gateway id>-dynsec` is chosen by the caller). */
  clientId: string;
  logger: IotLogger;
  /** Wait for the plugin's answer, ms (default 5000). */
  timeoutMs?: number;
  /** Retry policy (default 1 s doubling to 60 s). */
  retry?: ReconnectBackoff;
  /** CA (PEM) trusted on an `mqtts://` url (MQTT_TLS_CA); absent: the system's CAs. */
  ca?: string;
}

interface Outstanding {
  expected: number;
  responses: DynsecResponse[];
  resolve: (responses: DynsecResponse[]) => void;
}

/**
 * Device accounts in Mosquitto's dynamic-security plugin (docs/deploy.md "External MQTT broker"), through
 * its control API: JSON commands published (QoS 1, MQTT 5) to `$CONTROL/dynamic-security/v1`, answers read from
 * `…/response` and matched by correlationData. Uses its own connection with the gateway's credentials (the operator's
 * role for it must allow `$CONTROL/dynamic-security/#`). The connection is never awaited: a broker that is down or
 * refuses the account does not stop the server; it reconnects with jittered backoff and every provisioning that
 * failed is retried. Passwords are sent to the broker only, never logged.
 */
export class DynsecAccounts implements BrokerAccounts {
  private readonly client: MqttClient;
  private readonly logger: IotLogger;
  private readonly timeoutMs: number;
  private readonly retry: ReconnectBackoff;
  private readonly instance = randomUUID();
  private sequence = 0;
  private readonly outstanding = new Map<string, Outstanding>();
  private readonly waiting = new Map<string, string>();
  private retryTimer: NodeJS.Timeout | null = null;
  private retryAttempt = 0;
  private closed = false;
  private subscribed: Promise<void> | null = null;

  private constructor(client: MqttClient, options: DynsecAccountsOptions) {
    this.client = client;
    this.logger = options.logger;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.retry = options.retry ?? PROVISION_RETRY;
  }

  /**
   * Opens the control connection (without waiting for it) and returns the accounts at once.
   * @throws only on a malformed `url`.
   */
  static start(options: DynsecAccountsOptions): DynsecAccounts {
    const url = new URL(options.url);
    const username = options.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
    const password = options.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
    url.username = "";
    url.password = "";
    const client = mqtt.connect(url.toString(), {
      clientId: options.clientId,
      username,
      password,
      protocolVersion: 5,
      clean: true,
      keepalive: 30,
      connectTimeout: 10_000,
      resubscribe: false,
      reconnectOnConnackError: true,
      ...(options.ca ? { ca: options.ca } : {}),
    });
    const accounts = new DynsecAccounts(client, options);
    followBackoff(client, options.retry ?? PROVISION_RETRY);
    client.on("connect", () => {
      accounts.subscribed = client
        .subscribeAsync(DYNSEC_RESPONSE_TOPIC, { qos: 1 })
        .then((grants) => {
          if (grants.some((g) => g.qos >= 128)) {
            throw new Error("the broker refused the subscription to the dynamic-security answers");
          }
        })
        .catch((err: Error) => {
          options.logger.error({ err: err.message }, "dynsec: cannot read answers (check the gateway's role)");
          throw err;
        });
      accounts.subscribed.catch(() => undefined);
      accounts.retryNow();
    });
    client.on("error", (err) => options.logger.warn({ err: err.message }, "dynsec control connection error"));
    client.on("message", (topic, payload) => {
      if (topic === DYNSEC_RESPONSE_TOPIC) accounts.onResponse(payload);
    });
    return accounts;
  }

  get pending(): number {
    return this.waiting.size;
  }

  /** True while the control connection is up. */
  get connected(): boolean {
    return this.client.connected;
  }

  async provision(mac: string, secret: string): Promise<boolean> {
    const user = normaliseMac(mac);
    if (!/^[0-9A-F]{12}$/.test(user) || this.closed) return false;
    this.waiting.set(user, secret);
    const ok = await this.attempt(user, secret);
    if (!ok) this.scheduleRetry();
    return ok;
  }

  /**
   * The plugin's view of a client (getClient): its username, client id and role names, or null when it does not exist.
   * @throws when the broker cannot be reached or does not answer in time.
   */
  async getClient(username: string): Promise<{ username: string; clientid?: string; roles: string[] } | null> {
    const [answer] = await this.send([{ command: "getClient", username }]);
    if (answer.error === "Client not found") return null;
    if (answer.error) throw new Error(`dynsec getClient: ${answer.error}`);
    const client = (answer.data as { client: { username: string; clientid?: string; roles?: { rolename: string }[] } })
      .client;
    return {
      username: client.username,
      clientid: client.clientid,
      roles: (client.roles ?? []).map((r) => r.rolename),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.waiting.size > 0) {
      this.logger.warn({ macs: [...this.waiting.keys()] }, "dynsec: devices left unprovisioned at shutdown");
    }
    this.waiting.clear();
    for (const o of this.outstanding.values()) o.resolve([]);
    this.outstanding.clear();
    await this.client.endAsync().catch(() => undefined);
  }

  /** One provisioning: the role (created or its ACLs replaced), then the client (created or updated). */
  private async attempt(mac: string, secret: string): Promise<boolean> {
    if (!this.client.connected) return false;
    const rolename = deviceRoleName(mac);
    const acls = deviceAcls(mac);
    const roles = [{ rolename, priority: 0 }];
    try {
      const answers = await this.send([
        { command: "createRole", rolename, acls },
        { command: "modifyRole", rolename, acls },
        { command: "createClient", username: mac, clientid: mac, password: secret, roles },
        { command: "modifyClient", username: mac, clientid: mac, password: secret, roles },
      ]);
      const failed = answers.filter(
        (a) => a.error && a.error !== "Role already exists" && a.error !== "Client already exists",
      );
      if (failed.length > 0) {
        this.logger.warn({ mac, errors: failed.map((a) => `${a.command}: ${a.error}`) }, "dynsec refused a device");
        return false;
      }
      if (this.waiting.get(mac) === secret) this.waiting.delete(mac);
      this.logger.info({ mac }, "device account provisioned in the broker");
      return true;
    } catch (err) {
      this.logger.warn({ mac, err: (err as Error).message }, "dynsec provisioning failed; will retry");
      return false;
    }
  }

  /** Publishes commands in one message and resolves with their answers, in order. */
  private async send(commands: Array<Record<string, unknown>>): Promise<DynsecResponse[]> {
    if (!this.client.connected) throw new Error("control connection down");
    await this.subscribed;
    const id = `${this.instance}:${++this.sequence}`;
    const tagged = commands.map((c, i) => ({ ...c, correlationData: `${id}:${i}` }));
    const answered = new Promise<DynsecResponse[]>((resolve) => {
      this.outstanding.set(id, { expected: commands.length, responses: [], resolve });
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.timeoutMs);
    });
    try {
      await this.client.publishAsync(DYNSEC_TOPIC, JSON.stringify({ commands: tagged }), { qos: 1 });
      const answers = await Promise.race([answered, timedOut]);
      if (!answers) throw new Error("no answer from the dynamic-security plugin in time");
      if (answers.length < commands.length) throw new Error("closed");
      return answers.sort(
        (a, b) => Number(a.correlationData?.split(":").pop()) - Number(b.correlationData?.split(":").pop()),
      );
    } finally {
      clearTimeout(timer);
      this.outstanding.delete(id);
    }
  }

  private onResponse(payload: Buffer): void {
    let body: { responses?: DynsecResponse[] };
    try {
      body = JSON.parse(payload.toString("utf8"));
    } catch {
      return;
    }
    for (const r of body.responses ?? []) {
      const tag = r.correlationData;
      if (typeof tag !== "string" || !tag.startsWith(`${this.instance}:`)) continue;
      const id = tag.slice(0, tag.lastIndexOf(":"));
      const o = this.outstanding.get(id);
      if (!o) continue;
      o.responses.push(r);
      if (o.responses.length >= o.expected) o.resolve(o.responses);
    }
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer || this.waiting.size === 0) return;
    const delay = reconnectDelayMs(this.retryAttempt, this.retry);
    this.retryAttempt += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.flush();
    }, delay);
    this.retryTimer.unref();
  }

  /** After a (re)connection: retry at once. */
  private retryNow(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryAttempt = 0;
    void this.flush();
  }

  private async flush(): Promise<void> {
    for (const [mac, secret] of [...this.waiting]) {
      if (this.closed) return;
      await this.attempt(mac, secret);
    }
    if (this.waiting.size === 0) this.retryAttempt = 0;
    else this.scheduleRetry();
  }
}
