/**
 * Query key of the owner's display units (`appuser_setting/app/setting/units`; dropped with every other query at
 * sign-out, so never shared between users).
 */
export const unitPreferencesKey = ["appuser-setting", "units"] as const;
