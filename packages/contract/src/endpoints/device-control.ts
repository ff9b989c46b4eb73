// Device control, statistics and commands (spec §7 /api/run-lucky/device/app/device-control, device-flow-statistics). Filled by issue 4.

/** Device-control endpoints (spec §7). */
export const deviceControlEndpoints = {} as const;
