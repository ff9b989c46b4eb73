import { z } from "zod";
import { weakSecretProblems } from "./auth/secret-policy.ts";

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
/** An absolute URL of any scheme (postgres://, mqtt://, smtp://, redis://, https://); empty counts as unset. */
const optionalUrl = z.url().optional();
/** A broker URL devices may be given: mqtt, mqtts, ws or wss, without user name or password. */
const mqttPublicUrl = z
  .url({ protocol: /^(mqtts?|wss?)$/ })
  .refine((u) => !URL.canParse(u) || (new URL(u).username === "" && new URL(u).password === ""), {
    message: "must not carry credentials",
  })
  .optional();

/** Environment variables read by the server (docs/architecture.md "Configuration"), with their defaults. */
const ZEnv = z.object({
  PORT: port(8080),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  /** PostgreSQL connection string; when absent the embedded SQLite file in DATA_DIR is used. */
  DATABASE_URL: optionalUrl,
  /** External MQTT broker (Mosquitto, EMQX); when absent the embedded Aedes broker listens on MQTT_HOST:MQTT_PORT. */
  MQTT_URL: optionalUrl,
  /**
   * Who keeps the device accounts of the MQTT_URL broker (docs/deploy.md): "plain" (default) the operator;
   * "mosquitto-dynsec" the server, through Mosquitto's dynamic-security control API with the credentials of MQTT_URL.
   */
  MQTT_BROKER_KIND: z.enum(["plain", "mosquitto-dynsec"]).default("plain"),
  /**
   * MQTT client id of this process's gateway on an external broker: names its persistent session, so keep it stable
   * for a process and different between processes. Unset → `aquapilot-gw-<host name>-<PORT>`.
   */
  GATEWAY_CLIENT_ID: z
    .string()
    .regex(/^[0-9A-Za-z._:-]{1,64}$/, "expected 1–64 letters, digits, '.', '_', ':' or '-'")
    .optional(),
  /**
   * With MQTT_URL, how each server process's gateway subscribes: "assigned" (default) shares the devices
   * out among the live gateways, each holding plain persistent subscriptions to its own, which Mosquitto 2.0 keeps
   * across its restarts; "shared" subscribes through `$share/gateways/…` (a broker that keeps shared subscriptions in
   * its sessions, e.g. EMQX); "plain" takes every device (one process only — each process would handle every message).
   */
  MQTT_SUBSCRIPTIONS: z.enum(["assigned", "shared", "plain"]).default("assigned"),
  MQTT_HOST: z.string().min(1).default("127.0.0.1"),
  MQTT_PORT: port(1883),
  /** smtp(s)://user:pass@host:port; when absent e-mails go to the outbox table and the log only. */
  SMTP_URL: optionalUrl,
  /** Public base URL of the server (links in e-mails, QR codes). */
  PUBLIC_URL: optionalUrl,
  /** Demo fleet size: how many simulated softeners start with the server (default 3; 0 when APP_ENV=production). */
  SIM_DEVICES: z.coerce.number().int().min(0).max(1000).default(3),
  /** Simulated seconds per real second. */
  SIM_TIME_SCALE: z.coerce.number().positive().max(1_000_000).default(60),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  APP_ENV: z.enum(["development", "test", "production"]).default("development"),
  /**
   * Redis shared by every server process (docs/deploy.md): the bus's pub/sub backplane (redis-bus.ts, so a
   * device event handled by any process reaches every process's hubs), the single use of hub connection tokens across
   * processes, and the HTTP rate limits and sign-in lockouts (security/limits.ts), which then count in Redis.
   */
  REDIS_URL: optionalUrl,
  /**
   * Which peers may name the client's address in X-Forwarded-For (Fastify `trustProxy`): "loopback" (the
   * default: a reverse proxy on the same host), "true" (any peer: only when nothing reaches the server except
   * through the proxy), "false" (never), or a comma list of addresses, CIDRs and the names loopback, linklocal,
   * uniquelocal. The per-address rate limits key on the address found this way, so trusting a peer that is not a
   * proxy lets any client choose its address.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z.:/]+(\s*,\s*[0-9A-Za-z.:/]+)*$/, "expected true, false, or a list of addresses / CIDRs")
    .default("loopback")
    .transform((text): boolean | string => (text === "true" ? true : text === "false" ? false : text)),
  /**
   * The origins whose pages may call the API, the token endpoint, the hubs' negotiate and the uploads across origins
   * (CORS): a comma list of `scheme://host[:port]`, by default the native shells' web views
   * (`https://localhost` on Android, `capacitor://localhost` on iOS); "none" for no cross-origin caller at all. The
   * browser's app on the server's own origin needs no entry.
   */
  CORS_ORIGINS: z
    .string()
    .trim()
    .default("https://localhost,capacitor://localhost")
    .transform((text, ctx): string[] => {
      if (text === "none") return [];
      const origins = text.split(",").map((o) => o.trim());
      for (const origin of origins) {
        if (!/^[a-z][a-z0-9+.-]*:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin) || origin.includes("*")) {
          ctx.addIssue({
            code: "custom",
            message: `expected "none" or origins scheme://host[:port], got ${JSON.stringify(origin)}`,
          });
        }
      }
      return origins;
    }),
  /**
   * Multiplies the count of every HTTP rate limit and sign-in threshold (security/limits.ts; windows and delays stay
   * as they are). 1 in production; test and demo systems that sign many users in from one address raise it.
   */
  RATE_LIMIT_SCALE: z.coerce.number().min(0.01).max(1_000_000).default(1),
  /**
   * How long (ms) a server process may answer a bearer token's check (user, security stamp, session), a household
   * membership and a household's device list from memory (auth/request-cache.ts,
   * modules/family-device/list-cache.ts). The bus events that change them (user.revoked, session.ended, user.changed,
   * family.members-changed, device.changed, family.devices-changed) drop them at once; this bounds what a lost event
   * or a change made outside the server (the set-master script) can leave. 0 turns the caches off.
   */
  AUTH_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  // App configuration served by GET /api/business-basic-data/app/app-config-setting/ (spec §1, §7).
  /** Customer service phone shown on About (spec §1: 114). */
  CUSTOMER_SERVICE_PHONE: z.string().min(1).max(32).default("114"),
  /** Map provider: 1 AMap, 2 Baidu, 3 Tencent, any other Tianditu (spec §1); default 4 Tianditu. */
  MAP_TYPE: z.coerce.number().int().min(0).max(99).default(4),
  /** Vendor keys of the map service configuration; empty when unset (no key is ever invented). */
  MAP_KEY_AMAP: z.string().default(""),
  MAP_KEY_BAIDU: z.string().default(""),
  MAP_KEY_TENCENT: z.string().default(""),
  MAP_KEY_TIANDITU: z.string().default(""),
  /** Article ids of the privacy policy and the user agreement (help articles); unset → the seeded articles' ids. */
  PRIVACY_POLICY_ARTICLE_ID: z.string().optional(),
  USER_AGREEMENT_ARTICLE_ID: z.string().optional(),
  /** Latest native shell versions (e.g. 1.4.0); a shell older than these offers the update. Unset → null. */
  ANDROID_LATEST_VERSION: z.string().optional(),
  IOS_LATEST_VERSION: z.string().optional(),
  /** Where the update dialog sends the user (the provider's download site). Unset → null. */
  ANDROID_DOWNLOAD_URL: optionalUrl,
  IOS_DOWNLOAD_URL: optionalUrl,
  /** Version of the deployed web app; clients holding another one clear their cache and reload. Unset → null. */
  WEB_VERSION: z.string().optional(),
  /**
   * Shared secret of integration calls (external-callback, header x-external-callback-secret); unset → generated
   * once into DATA_DIR/external-callback.secret.
   */
  EXTERNAL_CALLBACK_SECRET: z.string().min(16).optional(),
  // Messages and push (docs/messages-push.md).
  /** JPush application key and master secret; when either is empty, pushes to phones go to the outbox (demo). */
  JPUSH_APP_KEY: z.string().default(""),
  JPUSH_MASTER_SECRET: z.string().default(""),
  /** JPush REST API base URL (the push call is POST {JPUSH_BASE_URL}/v3/push). */
  JPUSH_BASE_URL: z.url().default("https://api.jpush.cn"),
  /** Send iOS notifications through the APNs production environment (JPush options.apns_production). */
  JPUSH_APNS_PRODUCTION: z.enum(["true", "false"]).default("false"),
  /** VAPID key pair (base64url) of Web Push; when unset a pair is generated once into DATA_DIR/web-push-vapid.json. */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  /** VAPID contact (mailto: or https: URL) sent to push services. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, "expected mailto: or https://")
    .default("mailto:push@aquapilot.example"),
  /** A device offline for longer than this many minutes gets an "offline" message (once per offline period). */
  OFFLINE_MESSAGE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(30),
  // Network setup (docs/device-protocol.md §13).
  /**
   * The broker URL devices are told in activation step one (`mqttUrl`, §13.4), e.g. mqtts://mqtt.example.com:8883
   * when devices reach the broker through a public name or a TLS front. Unset → the device link's own broker URL
   * (MQTT_URL without its credentials, or the embedded broker's address). Must not carry credentials.
   */
  MQTT_PUBLIC_URL: mqttPublicUrl,
  /** UDP port on 127.0.0.1 where the simulator plays the module's access point (development bridge, §13.6). */
  SIM_AP_UDP_PORT: port(48880),
  /** UDP port on 127.0.0.1 where the simulator plays the module on the home network (development bridge, §13.6). */
  SIM_LAN_UDP_PORT: port(48881),
});

/** The validated server configuration (every field of {@link loadConfig}). */
export type AppConfig = z.output<typeof ZEnv>;

/** Raised by {@link loadConfig}; `message` names every offending variable. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.problems = problems;
    this.name = "ConfigError";
  }
}

/** Variables whose value is a secret or may hold one: never repeated in a {@link ConfigError}. */
const SECRET_NAME = /SECRET|PRIVATE_KEY|PASSWORD|TOKEN|MAP_KEY|APP_KEY/;

/** How a variable's value may appear in an error message: secrets hidden, URLs without their password. */
function shown(name: string, value: string | undefined): string {
  if (value === undefined) return "unset";
  if (SECRET_NAME.test(name)) return "value hidden";
  if (URL.canParse(value) && new URL(value).password) {
    const u = new URL(value);
    u.password = "***";
    return `got ${JSON.stringify(u.toString())}`;
  }
  return `got ${JSON.stringify(value)}`;
}

/**
 * Variables that were replaced, and what to set instead: an operator's old setting must not be silently ignored.
 */
const RENAMED: Record<string, string> = {
  MQTT_SHARED_SUBSCRIPTIONS:
    'set MQTT_SUBSCRIPTIONS instead: "assigned" (the default; several processes on Mosquitto), "shared" (EMQX) or "plain" (one process)',
};

/**
 * Reads and validates the configuration from environment variables (docs/architecture.md "Configuration").
 * Empty strings count as unset. Defaults: PORT 8080, HOST 127.0.0.1, DATA_DIR ./data, MQTT_HOST 127.0.0.1,
 * MQTT_PORT 1883, SIM_DEVICES 3 (0 when APP_ENV=production: no simulated softeners unless asked for), SIM_TIME_SCALE 60,
 * LOG_LEVEL info, APP_ENV development, CUSTOMER_SERVICE_PHONE 114, MAP_TYPE 4 (Tianditu), MAP_KEY_* empty,
 * SIM_AP_UDP_PORT 48880, SIM_LAN_UDP_PORT 48881, MQTT_PUBLIC_URL unset, TRUST_PROXY loopback, RATE_LIMIT_SCALE 1,
 * AUTH_CACHE_MS 5000, CORS_ORIGINS https://localhost,capacitor://localhost, MQTT_BROKER_KIND plain, MQTT_SUBSCRIPTIONS assigned, GATEWAY_CLIENT_ID unset (system.ts derives
 * one).
 * With APP_ENV=production the secrets given in the environment must be strong (auth/secret-policy.ts
 * `weakSecretProblems`).
 * @throws ConfigError naming each invalid variable, e.g. "PORT: expected an integer 0-65535, got "abc"", or each weak
 *   production secret ("EXTERNAL_CALLBACK_SECRET: too short for production …"), or MQTT_BROKER_KIND other than
 *   plain without MQTT_URL, or a replaced variable still set (MQTT_SHARED_SUBSCRIPTIONS); secret values are never
 *   repeated.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(ZEnv.shape)) {
    const v = env[key];
    input[key] = v === undefined || v.trim() === "" ? undefined : v;
  }
  if (input.APP_ENV === "production" && input.SIM_DEVICES === undefined) input.SIM_DEVICES = "0";
  const renamed = Object.entries(RENAMED).filter(([old]) => (env[old] ?? "").trim() !== "");
  if (renamed.length > 0) {
    throw new ConfigError(renamed.map(([old, now]) => `${old}: no longer read; ${now}`));
  }
  const parsed = ZEnv.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? "?");
        return `${name}: ${issue.message} (${shown(name, input[name])})`;
      }),
    );
  }
  if (parsed.data.MQTT_BROKER_KIND !== "plain" && !parsed.data.MQTT_URL) {
    throw new ConfigError([
      `MQTT_BROKER_KIND: ${parsed.data.MQTT_BROKER_KIND} needs MQTT_URL (the external broker and the gateway's account)`,
    ]);
  }
  if (parsed.data.APP_ENV === "production") {
    const problems = weakSecretProblems(parsed.data);
    if (problems.length > 0) throw new ConfigError(problems);
  }
  return parsed.data;
}
