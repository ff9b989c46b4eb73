/**
 * `@aquapilot/contract/wire`: the contract without zod — the enums (spec §3), the plain wire values
 * (paths, permission names, units, limits), the display-name rule of sign-up and the run-time endpoint table, with
 * every type of the full contract.
 * The web app imports run-time values from here only, so its first screen loads no schema; the schemas themselves
 * (`@aquapilot/contract`) load with the few screens that validate with them.
 */
export * from "./constants.ts";
export * from "./display-name.ts";
export * from "./enums.ts";
export type * from "./index.ts";
export { deviceFlowStatisticsCsv, endpoints } from "./routes.generated.ts";
