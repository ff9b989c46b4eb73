/**
 * The statistics module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { dailyUseL, USE_WINDOW_DAYS, waterReceivedBetween } from "./daily-use.ts";
export { CLOCK_ROWS_PER_STATEMENT, readFreshness, recordClockDrift, recordClockDrifts } from "./freshness.ts";
export { statisticsMessages } from "./messages.ts";
export { rollupTelemetryAt, rollupTelemetryBatch, type TelemetryArrival } from "./rollup.ts";
export { statisticsModule } from "./routes.ts";
export { readSaltStatus } from "./salt.ts";
export { expectedStationSeconds, type ReportedSettings, readReportedSettings } from "./settings.ts";
