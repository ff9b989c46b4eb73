/**
 * The statistics module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { dailyUseL, USE_WINDOW_DAYS, waterReceivedBetween } from "./daily-use.ts";
export { CLOCK_ROWS_PER_STATEMENT, readFreshness, recordClockDrift, recordClockDrifts } from "./freshness.ts";
export { statisticsMessages } from "./messages.ts";
export { rollupTelemetryAt, rollupTelemetryBatch, type TelemetryArrival } from "./rollup.ts";
export { statisticsRoutes } from "./routes.ts";
export { readSaltStatus } from "./salt.ts";
export { expectedStationSeconds, type ReportedSettings, readReportedSettings } from "./settings.ts";
