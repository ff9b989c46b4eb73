import { PERMISSIONS } from "@aquapilot/contract";

/** What decides a user's permissions (spec §6). `isMaster` comes from users.is_master (src/cli/set-master.ts). */
export interface PolicySubject {
  isMaster?: boolean;
}

/**
 * The ABP `grantedPolicies` map (name → true) for a user (spec §6, decisions.md §4): a device master holds every
 * permission of PERMISSIONS; everyone else holds every permission except "master". Anonymous callers hold none.
 */
export function grantedPoliciesFor(user: PolicySubject | null): Record<string, true> {
  if (!user) return {};
  const granted: Record<string, true> = {};
  for (const name of Object.values(PERMISSIONS)) {
    if (name === PERMISSIONS.master && !user.isMaster) continue;
    granted[name] = true;
  }
  return granted;
}
