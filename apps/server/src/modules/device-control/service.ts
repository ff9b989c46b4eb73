import type { TDeviceInfo } from "@aquapilot/contract";
import type { Db } from "../../db/index.js";
import { AppError, ErrorCode } from "../../http/errors.js";
import { requireDeviceAccess } from "../access.js";
import type { AppContext } from "../context.js";

/**
 * The device's stored information and last reported state (spec §3 Device info). Units: L, L/min, s.
 * @throws AppError NotFound when the device does not exist.
 */
export async function getDeviceInfo(db: Db, deviceId: string, commandId: string | null): Promise<TDeviceInfo> {
  const r = await db
    .selectFrom("devices as d")
    .leftJoin("device_state as s", "s.device_id", "d.id")
    .select([
      "d.id",
      "d.mac",
      "d.name",
      "d.model",
      "d.device_serial_number",
      "d.serial_number",
      "d.firmware_version",
      "s.online",
      "s.station",
      "s.station_remaining_seconds",
      "s.remaining_water_l",
      "s.capacity_l",
      "s.flow_rate_lpm",
      "s.total_water_l",
      "s.vacation",
      "s.close_reason",
      "s.last_report_time",
    ])
    .where("d.id", "=", deviceId)
    .executeTakeFirst();
  if (!r) throw new AppError(ErrorCode.NotFound, "device.notFound");
  return {
    id: r.id,
    mac: r.mac,
    name: r.name,
    model: r.model,
    deviceSerialNumber: r.device_serial_number,
    serialNumber: r.serial_number,
    firmwareVersion: r.firmware_version,
    online: r.online === 1,
    station: r.station ?? null,
    stationRemainingSeconds: r.station_remaining_seconds ?? null,
    remainingWaterL: r.remaining_water_l ?? null,
    capacityL: r.capacity_l ?? null,
    flowRateLpm: r.flow_rate_lpm ?? null,
    totalWaterL: r.total_water_l ?? null,
    vacation: r.vacation === 1,
    closeReason: r.close_reason ?? null,
    lastReportTime: r.last_report_time ?? null,
    commandId,
  };
}

/**
 * Asks the device to report now and answers what is known (spec §7 device-control/query-device-info). The fresh
 * report arrives later on hub 1. An offline device is not an error here: the last known state comes back with
 * `commandId` null.
 * @throws AppError NotFound / Forbidden when the caller may not use the device.
 */
export async function queryDeviceInfo(ctx: AppContext, userId: string, deviceId: string): Promise<TDeviceInfo> {
  await requireDeviceAccess(ctx.db, userId, deviceId);
  let commandId: string | null = null;
  try {
    ({ commandId } = await ctx.devices.sendCommand({ deviceId, name: "query", userId }));
  } catch (err) {
    if (!(err instanceof AppError && err.code === ErrorCode.DeviceOffline)) throw err;
  }
  return getDeviceInfo(ctx.db, deviceId, commandId);
}
