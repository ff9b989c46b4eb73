import { PERMISSIONS } from "@aquapilot/contract";

/** What decides a user's permissions (spec §6). `isMaster` comes from users.is_master (src/cli/set-master.ts). */
export interface PolicySubject {
  isMaster?: boolean;
}

/**
 * The ABP `grantedPolicies` map (name → true) for a user (spec §6;
 * docs/adr/0006-authorization-declared-per-endpoint.md): a device master holds every permission of PERMISSIONS;
 * everyone else holds every permission except "master". Anonymous callers hold none.
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

const PERMISSION_NAMES: ReadonlySet<string> = new Set(Object.values(PERMISSIONS));

/**
 * Whether `user` holds permission `name`: the same answer as `grantedPoliciesFor(user)[name] === true`, without
 * building the map (route checks ask it on every request).
 */
export function holdsPermission(user: PolicySubject | null, name: string): boolean {
  if (!user || !PERMISSION_NAMES.has(name)) return false;
  return name !== PERMISSIONS.master || user.isMaster === true;
}
