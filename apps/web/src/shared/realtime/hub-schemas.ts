/**
 * The contract's schemas of the hubs' messages (spec §7 hubs 1 and 2), loaded by lazy-hub.ts in development and tests
 * only: building them evaluates zod and the contract's device and family schemas, half a second of main-thread work on
 * a mid-range phone. Production checks the fields the app reads instead (`productionCheck` in lazy-hub.ts).
 */
export { ZDeviceChangeMessage, ZMessage } from "@aquapilot/contract";
