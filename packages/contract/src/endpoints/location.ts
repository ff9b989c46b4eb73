// Region tree and IP lookup (spec §7 /api/business-basic-data/app/travel-location-lookup). Filled by issue 3.

/** Location endpoints (spec §7). */
export const locationEndpoints = {} as const;
