import { randomUUID } from "node:crypto";
import type {
  CONTROL_DEVICE_COMMANDS,
  DeviceCommandName,
  Language,
  TCommandRecord,
  TCommandStatus,
  TDeviceInfo,
  TMqttOtaParams,
  TOtaVersion,
} from "@aquapilot/contract";
import { loadOrCreateSecret } from "../../auth/secrets.ts";
import type { AppConfig } from "../../config.ts";
import type { CoreServices } from "../../core-services.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { translate } from "../../http/messages.ts";
import { presentLink, presentLiveState } from "../../iot/live-state.ts";
import {
  compareVersions,
  DOWNLOAD_KEY_FILE,
  DOWNLOAD_TOKEN_SECONDS,
  downloadToken,
  type FirmwareImage,
  findFirmwareImage,
  firmwareBaseUrl,
  firmwareDownloadUrl,
  latestFirmwareImage,
} from "../firmware/index.ts";
import {
  CLOCK_ROWS_PER_STATEMENT,
  expectedStationSeconds,
  readFreshness,
  readReportedSettings,
  recordClockDrift,
  recordClockDrifts,
} from "../statistics/index.ts";
import { validateConfig } from "./config-validation.ts";

/**
 * A device row joined with its last reported state, mapped to the device-info fields of spec §3 plus what the device
 * screens need (household, image, sort, reported settings as JSON text). Units: L, L/min, s.
 * @throws AppError NotFound when the device does not exist.
 */
export async function readDeviceRow(db: Db, deviceId: string) {
  const r = await db
    .selectFrom("devices as d")
    .leftJoin("device_state as s", "s.device_id", "d.id")
    .select([
      "d.id",
      "d.mac",
      "d.name",
      "d.image",
      "d.model",
      "d.sort",
      "d.family_id",
      "d.device_serial_number",
      "d.serial_number",
      "d.firmware_version",
      "d.creation_time",
      "s.online",
      "s.station",
      "s.station_remaining_seconds",
      "s.remaining_water_l",
      "s.capacity_l",
      "s.flow_rate_lpm",
      "s.total_water_l",
      "s.vacation",
      "s.close_reason",
      "s.settings_json",
      "s.last_report_time",
      "s.reported_at",
      "s.station_started_at",
      "s.station_duration_seconds",
      "s.service_remaining_seconds",
      "s.clock_rate",
      "s.last_heard_at",
      "s.status_at",
      "s.reports_refused_since",
      "s.reports_refused_reason",
    ])
    .where("d.id", "=", deviceId)
    .executeTakeFirst();
  if (!r) throw new AppError(ErrorCode.NotFound, "device.notFound");
  const info: Omit<TDeviceInfo, "commandId"> = {
    id: r.id,
    mac: r.mac,
    name: r.name,
    model: r.model,
    deviceSerialNumber: r.device_serial_number,
    serialNumber: r.serial_number,
    firmwareVersion: r.firmware_version,
    ...presentLiveState(r),
    capacityL: r.capacity_l ?? null,
    totalWaterL: r.total_water_l ?? null,
    vacation: r.vacation === 1,
    closeReason: r.close_reason ?? null,
    registeredAt: r.creation_time,
    ...presentLink(r),
  };
  return { info, familyId: r.family_id, image: r.image, sort: r.sort, settingsJson: r.settings_json ?? null };
}

/**
 * The device's stored information and last reported state (spec §3 Device info). Units: L, L/min, s.
 * @throws AppError NotFound when the device does not exist.
 */
export async function getDeviceInfo(db: Db, deviceId: string, commandId: string | null): Promise<TDeviceInfo> {
  return { ...(await readDeviceRow(db, deviceId)).info, commandId };
}

/**
 * Asks the device to report now and answers what is known (spec §7 device-control/query-device-info). The fresh
 * report arrives later on hub 1. An offline device is not an error here: the last known state comes back with
 * `commandId` null.
 * @throws AppError NotFound (device.notFound) when the caller may not use the device, as for an unknown one.
 */
export async function queryDeviceInfo(ctx: CoreServices, userId: string, deviceId: string): Promise<TDeviceInfo> {
  let commandId: string | null = null;
  try {
    ({ commandId } = await ctx.devices.sendCommand({ deviceId, name: "query", userId }));
  } catch (err) {
    if (!(err instanceof AppError && err.code === ErrorCode.DeviceOffline)) throw err;
  }
  return getDeviceInfo(ctx.db, deviceId, commandId);
}

// ---------- commands (spec §4 controls, §7 device-control): every command is confirmed ----------

/** A pending command older than this is reported failed with "Device offline" (docs/device-protocol.md timeouts). */
export const COMMAND_TIMEOUT_MS = 10_000;
/**
 * An acknowledged command whose effect no state report has shown this long after its ack is reported failed with
 * error "not-applied" (docs/device-protocol.md §3.5): a device reports its state at least every 15 minutes.
 */
export const COMMAND_APPLY_TIMEOUT_MS = 30 * 60_000;
/** A running firmware update with no progress for this long is considered failed (it no longer blocks commands). */
export const OTA_STALE_MS = 120_000;
/**
 * Latest firmware per device model when no image was uploaded for the model (development: the `ota` command then names
 * a version only and the simulator plays the update); the setting AQ_LATEST_FIRMWARE_VERSION overrides every model's.
 * An uploaded image (modules/firmware) always takes precedence.
 */
export const LATEST_FIRMWARE: Record<string, string> = { default: "1.1.0", "AQ-S25": "1.1.0" };

/** The firmware update of a device if one is running now (stale ones are closed as failed first). */
async function runningOta(ctx: CoreServices, deviceId: string) {
  const row = await ctx.db.selectFrom("device_ota").selectAll().where("device_id", "=", deviceId).executeTakeFirst();
  if (row?.status !== "running") return null;
  if (ctx.now().getTime() - Date.parse(row.updated_at) > OTA_STALE_MS) {
    await ctx.db
      .updateTable("device_ota")
      .set({ status: "failed", error: "timeout", updated_at: ctx.now().toISOString() })
      .where("device_id", "=", deviceId)
      .where("status", "=", "running")
      .execute();
    return null;
  }
  return row;
}

/**
 * Sends one command and waits (≤ 10 s) for the device's acknowledgement; the outcome is also announced on hub 1
 * (kind "ack"). A repeated `commandId` is never sent or applied twice: the recorded outcome comes back.
 * While a firmware update runs, every command but "query" is refused ("the device is updating", spec §4).
 * @returns {commandId, status done|failed, error (device's reason), message (caller's language)}.
 * @throws AppError DeviceOffline "Device offline" when the device is offline or does not answer in time;
 *   Conflict deviceControl.updating during an update.
 */
export async function runCommand(
  ctx: CoreServices,
  input: {
    deviceId: string;
    userId: string;
    name: DeviceCommandName;
    params?: Record<string, unknown>;
    commandId?: string;
    lang: Language;
    ignoreOta?: boolean;
  },
): Promise<TCommandStatus> {
  if (input.name !== "query" && !input.ignoreOta && (await runningOta(ctx, input.deviceId))) {
    throw new AppError(ErrorCode.Conflict, "deviceControl.updating");
  }
  try {
    const r = await ctx.devices.sendCommandAndWait({
      deviceId: input.deviceId,
      name: input.name,
      params: input.params ?? {},
      userId: input.userId,
      commandId: input.commandId,
      timeoutMs: COMMAND_TIMEOUT_MS,
    });
    // Accepted but not yet shown in a state report: still pending (the contract has no intermediate status).
    return {
      commandId: r.commandId,
      status: r.ok ? (r.applied === false ? "pending" : "done") : "failed",
      error: r.ok ? null : r.error,
      message: r.ok ? null : translate(input.lang, "deviceControl.failed", { error: r.error ?? "failed" }),
    };
  } catch (err) {
    if (err instanceof AppError && err.code === ErrorCode.DeviceOffline) {
      throw new AppError(ErrorCode.DeviceOffline, "deviceControl.offline");
    }
    throw err;
  }
}

/**
 * control-device (spec §7, Q + B): forced-flushing, forced-switch, sync-time (sets the device clock to the phone's
 * time: `params.time` or query `time`, ISO; default server time) or set-config (`params.settings` or `params`,
 * validated first: a wrong value gives "Please enter the correct configuration" and nothing is sent).
 * @throws AppError Validation (deviceControl.badConfig / badTime), and as {@link runCommand}.
 */
export async function controlDevice(
  ctx: CoreServices,
  input: {
    deviceId: string;
    userId: string;
    command: (typeof CONTROL_DEVICE_COMMANDS)[number];
    params?: Record<string, unknown>;
    time?: string;
    commandId?: string;
    lang: Language;
  },
): Promise<TCommandStatus> {
  let params: Record<string, unknown> = {};
  if (input.command === "sync-time") {
    const text = typeof input.params?.time === "string" ? input.params.time : (input.time ?? ctx.now().toISOString());
    const t = Date.parse(text);
    if (!Number.isFinite(t)) throw new AppError(ErrorCode.Validation, "deviceControl.badTime");
    params = { time: new Date(t).toISOString() };
  } else if (input.command === "set-config") {
    const device = await ctx.db
      .selectFrom("devices")
      .select("model")
      .where("id", "=", input.deviceId)
      .executeTakeFirst();
    const raw = (input.params?.settings ?? input.params) as unknown;
    const checked = validateConfig(device?.model ?? null, raw);
    if (!checked.ok) {
      throw new AppError(ErrorCode.Validation, "deviceControl.badConfig", {}, [
        { message: translate(input.lang, "deviceControl.badConfig"), members: [checked.field] },
      ]);
    }
    params = { settings: checked.settings };
  }
  return runCommand(ctx, { ...input, name: input.command, params });
}

/**
 * The firmware offered to a device of `model`: the newest uploaded image for the model (its version and the image),
 * else — no image uploaded for the model — the configured override or the shipped table's version with no image.
 */
async function latestFirmware(
  ctx: Pick<CoreServices, "db" | "config">,
  model: string | null,
): Promise<{ version: string; image: FirmwareImage | null }> {
  const image = await latestFirmwareImage(ctx.db, model);
  if (image) return { version: image.version, image };
  return { version: fallbackFirmwareVersion(ctx.config, model), image: null };
}

function fallbackFirmwareVersion(config: Pick<AppConfig, "AQ_LATEST_FIRMWARE_VERSION">, model: string | null): string {
  return config.AQ_LATEST_FIRMWARE_VERSION || LATEST_FIRMWARE[model ?? ""] || LATEST_FIRMWARE.default;
}

const downloadKeys = new Map<string, Uint8Array>();

/**
 * The "ota" command's parameters for `image` and the device with MAC `mac` (contract `ZMqttOtaParams`): version, the
 * download URL with a token for this device valid {@link DOWNLOAD_TOKEN_SECONDS} (1 h), size, SHA-256 and signature.
 */
function otaImageParams(ctx: CoreServices, image: FirmwareImage, mac: string): TMqttOtaParams {
  const dataDir = ctx.config.DATA_DIR;
  let key = downloadKeys.get(dataDir);
  if (!key) {
    key = loadOrCreateSecret(dataDir, DOWNLOAD_KEY_FILE);
    downloadKeys.set(dataDir, key);
  }
  const expires = new Date(ctx.now().getTime() + DOWNLOAD_TOKEN_SECONDS * 1000);
  const token = downloadToken(key, mac, image.sha256, expires);
  return {
    version: image.version,
    url: firmwareDownloadUrl(firmwareBaseUrl(ctx.config), image.sha256, mac, token),
    size: image.size,
    sha256: image.sha256,
    signature: image.signature,
  };
}

/** query-ota-version (spec §7): current firmware, latest available, and the update running (progress %). */
export async function queryOtaVersion(ctx: CoreServices, deviceId: string): Promise<TOtaVersion> {
  const device = await ctx.db
    .selectFrom("devices")
    .select(["model", "firmware_version"])
    .where("id", "=", deviceId)
    .executeTakeFirstOrThrow();
  const running = await runningOta(ctx, deviceId);
  const last = await ctx.db
    .selectFrom("device_ota")
    .select(["status", "progress", "error"])
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  const latest = (await latestFirmware(ctx, device.model)).version;
  return {
    currentVersion: device.firmware_version,
    latestVersion: latest,
    updateAvailable: device.firmware_version === null || compareVersions(latest, device.firmware_version) > 0,
    updating: running !== null,
    progress: last?.progress ?? null,
    otaStatus: last?.status ?? null,
    otaError: last?.status === "failed" ? (last.error ?? "failed") : null,
  };
}

/**
 * device-ota (spec §7): records the update as running and sends "ota" (docs/device-protocol.md §3.7 "Firmware update").
 * The target is `version` or the latest for the device's model; when an image of that model and version was uploaded
 * (modules/firmware) the command carries it ({@link otaImageParams}: URL with a device token, size, SHA-256,
 * signature), else only the version (development; refused in production as deviceControl.noImage).
 * Progress arrives as "ota-progress" events on hub 1 and is recorded by {@link trackDeviceChanges}; meanwhile other
 * commands are refused. A refused or unanswered update is recorded as failed.
 * @throws AppError Conflict deviceControl.updating when one runs already; as {@link runCommand}.
 */
export async function startOta(
  ctx: CoreServices,
  input: { deviceId: string; userId: string; version?: string; commandId?: string; lang: Language },
): Promise<TCommandStatus> {
  const existing = input.commandId
    ? await ctx.db
        .selectFrom("device_ota")
        .select("command_id")
        .where("command_id", "=", input.commandId)
        .executeTakeFirst()
    : undefined;
  if (!existing && (await runningOta(ctx, input.deviceId))) {
    throw new AppError(ErrorCode.Conflict, "deviceControl.updating");
  }
  const device = await ctx.db
    .selectFrom("devices")
    .select(["model", "firmware_version", "mac"])
    .where("id", "=", input.deviceId)
    .executeTakeFirstOrThrow();
  const latest = await latestFirmware(ctx, device.model);
  const target = input.version ?? latest.version;
  const image = latest.image?.version === target ? latest.image : await findFirmwareImage(ctx.db, device.model, target);
  if (!image && ctx.config.APP_ENV === "production") throw new AppError(ErrorCode.NotFound, "deviceControl.noImage");
  const commandId = input.commandId ?? randomUUID();
  const now = ctx.now().toISOString();
  if (!existing) {
    const values = {
      command_id: commandId,
      from_version: device.firmware_version,
      target_version: target,
      status: "running",
      progress: 0,
      error: null,
      started_at: now,
      updated_at: now,
    };
    await ctx.db
      .insertInto("device_ota")
      .values({ device_id: input.deviceId, ...values })
      .onConflict((oc) => oc.column("device_id").doUpdateSet(values))
      .execute();
  }
  const fail = (error: string) =>
    ctx.db
      .updateTable("device_ota")
      .set({ status: "failed", error, updated_at: ctx.now().toISOString() })
      .where("command_id", "=", commandId)
      .where("status", "=", "running")
      .execute();
  try {
    const r = await runCommand(ctx, {
      ...input,
      commandId,
      name: "ota",
      params: image ? otaImageParams(ctx, image, device.mac) : { version: target },
      ignoreOta: true,
    });
    if (r.status === "failed") await fail(r.error ?? "failed");
    return r;
  } catch (err) {
    await fail(err instanceof AppError && err.code === ErrorCode.DeviceOffline ? "offline" : "error");
    throw err;
  }
}

/**
 * get-command-status (extension): a stored command and its outcome; a command still pending after 10 s is
 * reported failed with "Device offline"; one acknowledged but not yet shown in a state report is pending, and failed
 * with "not-applied" after {@link COMMAND_APPLY_TIMEOUT_MS}.
 * @throws AppError NotFound (deviceControl.commandNotFound), also for commands of other families' devices.
 */
export async function getCommandStatus(ctx: CoreServices, commandId: string, lang: Language): Promise<TCommandRecord> {
  const row = await ctx.db.selectFrom("device_commands").selectAll().where("id", "=", commandId).executeTakeFirst();
  if (!row) throw new AppError(ErrorCode.NotFound, "deviceControl.commandNotFound");
  const timedOut =
    (row.status === "pending" && ctx.now().getTime() - Date.parse(row.created_at) > COMMAND_TIMEOUT_MS) ||
    (row.status === "failed" && (row.error === "timeout" || row.error === "publish-failed"));
  // "acked": the device accepted it and no state report shows its effect yet — still pending on the wire (ackedAt
  // set) while the next state report may show it; after COMMAND_APPLY_TIMEOUT_MS it was not applied.
  const notApplied =
    row.status === "acked" &&
    ctx.now().getTime() - Date.parse(row.acked_at ?? row.created_at) > COMMAND_APPLY_TIMEOUT_MS;
  const status =
    timedOut || notApplied ? "failed" : row.status === "acked" ? "pending" : (row.status as TCommandRecord["status"]);
  return {
    commandId: row.id,
    deviceId: row.device_id,
    name: row.name,
    status,
    error: timedOut ? "timeout" : notApplied ? "not-applied" : row.error,
    message: timedOut
      ? translate(lang, "deviceControl.offline")
      : status === "failed"
        ? translate(lang, "deviceControl.failed", { error: notApplied ? "not-applied" : (row.error ?? "failed") })
        : null,
    createdAt: row.created_at,
    ackedAt: row.acked_at,
  };
}

/** device-station-maxworktime-cache (spec §7): every station 0–8 with its configured duration, s (0 = none). */
export async function stationMaxWorkTimes(
  ctx: CoreServices,
  deviceId: string,
): Promise<Array<{ station: number; maxWorkTimeSeconds: number }>> {
  const settings = await readReportedSettings(ctx.db, deviceId);
  return Array.from({ length: 9 }, (_, station) => ({
    station,
    maxWorkTimeSeconds: expectedStationSeconds(settings, station) ?? 0,
  }));
}

/**
 * query-device-info-return-result (spec §7): sends "query", waits for the acknowledgement (the device reports its
 * state before acknowledging), measures the clock drift from that fresh report and answers the state.
 * @throws AppError DeviceOffline "Device offline" when offline or silent for 10 s.
 */
export async function queryDeviceInfoReturnResult(
  ctx: CoreServices,
  input: { deviceId: string; userId: string; commandId?: string; lang: Language },
): Promise<TDeviceInfo & { clockDriftSeconds: number | null }> {
  const r = await runCommand(ctx, { ...input, name: "query" });
  if (r.status === "failed") throw new AppError(ErrorCode.DeviceOffline, "deviceControl.offline");
  const info = await getDeviceInfo(ctx.db, input.deviceId, r.commandId);
  if (info.lastReportTime) await recordClockDrift(ctx.db, input.deviceId, info.lastReportTime, ctx.now());
  const { clockDriftSeconds } = await readFreshness(ctx.db, input.deviceId);
  return { ...info, clockDriftSeconds };
}

/**
 * Follows device changes on the bus (registered once per app): records firmware-update progress ("ota-progress"
 * events; 100 % = done; a refused "ota" ack = failed) and measures clock drift whenever a new state report
 * (a new lastReportTime) arrives — the measurements of one moment written together, in one read and one multi-row
 * upsert, not two statements per device.
 * Only the changes this process's gateway announced (`subscribeLocal`): with N
 * processes each device message is handled by one gateway, so each is recorded once. Answers the
 * unsubscribe function. Errors are logged, never thrown.
 */
export function trackDeviceChanges(ctx: CoreServices, log: { warn(obj: object, msg: string): void }): () => void {
  const seen = new Map<string, string>();
  const drifts = new Map<string, { lastReportTime: string; now: Date }>();
  let flushing: Promise<void> | null = null;
  return ctx.bus.subscribeLocal((event) => {
    if (event.type !== "device.changed") return;
    const m = event.message;
    const now = ctx.now();
    const work = async () => {
      if (m.kind === "event" && m.event?.type === "ota-failed") {
        await ctx.db
          .updateTable("device_ota")
          .set({
            status: "failed",
            error: m.event.reason ?? "failed",
            ...(typeof m.event.progress === "number" ? { progress: m.event.progress } : {}),
            updated_at: now.toISOString(),
          })
          .where("device_id", "=", m.deviceId)
          .where("status", "=", "running")
          .execute();
      } else if (m.kind === "event" && m.event?.type === "ota-progress" && typeof m.event.progress === "number") {
        const progress = m.event.progress;
        const done = progress >= 100;
        await ctx.db
          .updateTable("device_ota")
          .set({ progress, status: done ? "done" : "running", updated_at: now.toISOString() })
          .where("device_id", "=", m.deviceId)
          .where("status", "=", "running")
          .execute();
      } else if (m.kind === "ack" && m.ack && !m.ack.ok) {
        await ctx.db
          .updateTable("device_ota")
          .set({ status: "failed", error: m.ack.error ?? "failed", updated_at: now.toISOString() })
          .where("command_id", "=", m.ack.commandId)
          .where("status", "=", "running")
          .execute();
      } else if (m.kind === "state" && m.lastReportTime) {
        const known = seen.get(m.deviceId);
        seen.set(m.deviceId, m.lastReportTime);
        // The first message after a start may repeat an old report (telemetry announces the stored state too).
        if (known === undefined || known === m.lastReportTime) return;
        // Measured per device, written with the other devices' measurements of the moment in one transaction.
        drifts.set(m.deviceId, { lastReportTime: m.lastReportTime, now });
        flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
          const batch = [...drifts];
          drifts.clear();
          flushing = null;
          // One read and one multi-row upsert for up to 500 of them: that statement is its own
          // transaction; more devices than one statement holds are written in one transaction.
          const measurements = batch.map(([deviceId, d]) => ({
            deviceId,
            lastReportTime: d.lastReportTime,
            now: d.now,
          }));
          if (measurements.length <= CLOCK_ROWS_PER_STATEMENT) await recordClockDrifts(ctx.db, measurements);
          else await ctx.db.transaction().execute((trx) => recordClockDrifts(trx, measurements));
        });
        await flushing;
      }
    };
    work().catch((err: Error) =>
      log.warn({ err: err.message, deviceId: m.deviceId }, "device-control tracking failed"),
    );
  });
}
