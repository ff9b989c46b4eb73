import { PERMISSIONS } from "@aquapilot/contract";

/**
 * Permission checks of spec §6 over grantedPolicies (a list of permission names). A holder of "master" (a device
 * master) passes every check. A requirement is a single name, `{anyOf}`, `{allOf}`, or a validator function.
 */
export type PermissionRequirement =
  | string
  | { anyOf: readonly string[] }
  | { allOf: readonly string[] }
  | ((granted: readonly string[]) => boolean);

/** Whether the policies include "master" (spec §6: held only by a master, who holds every permission). */
export function isMaster(granted: readonly string[]): boolean {
  return granted.includes(PERMISSIONS.master);
}

/** Single check: the permission is granted, or the holder is a master. */
export function hasPermission(granted: readonly string[], permission: string): boolean {
  return isMaster(granted) || granted.includes(permission);
}

/** Any-of check: at least one is granted (an empty list passes nobody but a master). */
export function hasAnyPermission(granted: readonly string[], permissions: readonly string[]): boolean {
  return isMaster(granted) || permissions.some((p) => granted.includes(p));
}

/** All-of check: every one is granted (an empty list passes everyone). */
export function hasAllPermissions(granted: readonly string[], permissions: readonly string[]): boolean {
  return isMaster(granted) || permissions.every((p) => granted.includes(p));
}

/** Checks a requirement of a route or menu item (spec §6); no requirement (undefined) passes. */
export function checkPermission(granted: readonly string[], requirement: PermissionRequirement | undefined): boolean {
  if (requirement === undefined) return true;
  if (typeof requirement === "string") return hasPermission(granted, requirement);
  if (typeof requirement === "function") return isMaster(granted) || requirement(granted);
  if ("anyOf" in requirement) return hasAnyPermission(granted, requirement.anyOf);
  return hasAllPermissions(granted, requirement.allOf);
}

/**
 * Turns ABP's `auth.grantedPolicies` map (name → true) into the list of granted names kept in login info
 * (spec §3; docs/decisions.md #4).
 */
export function grantedPolicyNames(map: Record<string, boolean> | null | undefined): string[] {
  return Object.entries(map ?? {})
    .filter(([, granted]) => granted === true)
    .map(([name]) => name)
    .sort();
}
