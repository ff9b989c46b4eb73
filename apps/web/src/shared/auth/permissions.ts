import { PERMISSIONS } from "@aquapilot/contract/wire";

/**
 * Permission checks of spec §6 over grantedPolicies (a list of permission names). A holder of "master" (a device
 * master) passes every check. A requirement is a single name, `{anyOf}`, `{allOf}`, or a validator function.
 */
export type PermissionRequirement =
  | string
  | readonly string[]
  | { anyOf: readonly string[] }
  | { allOf: readonly string[] }
  | ((granted: readonly string[]) => boolean)
  | AccessRule;

/**
 * The full declaration a route or menu item may carry (spec §6): a permission (single, set, any-of, all-of), an
 * `enabled` or `visible` flag, and/or a validator over the granted names. Every part that is present must pass.
 * `visible: false` hides; `enabled: false` disables; a failed permission or validator hides, or disables when
 * `whenDenied` is "disable". A master passes the permission and the validator, never the two flags (they are not
 * permissions but the item's own state, e.g. a feature switched off).
 */
export interface AccessRule {
  permission?: string | readonly string[] | { anyOf: readonly string[] } | { allOf: readonly string[] };
  visible?: boolean;
  enabled?: boolean;
  validator?: (granted: readonly string[]) => boolean;
  /** What a failed permission or validator does to the item: "hide" (default) or "disable". */
  whenDenied?: "hide" | "disable";
}

/** How a route or menu item shows (spec §6): usable, shown but disabled, or not shown. */
export type Access = "allowed" | "disabled" | "hidden";

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

function isRule(requirement: object): requirement is AccessRule {
  return !Array.isArray(requirement) && !("anyOf" in requirement) && !("allOf" in requirement);
}

/**
 * Checks a requirement of a route or menu item (spec §6); no requirement (undefined) passes. A set (an array of
 * names) passes when any one is granted, like `{anyOf}`. An {@link AccessRule} passes only when it resolves to
 * "allowed" (see {@link resolveAccess}).
 */
export function checkPermission(granted: readonly string[], requirement: PermissionRequirement | undefined): boolean {
  if (requirement === undefined) return true;
  if (typeof requirement === "string") return hasPermission(granted, requirement);
  if (typeof requirement === "function") return isMaster(granted) || requirement(granted);
  if (Array.isArray(requirement)) return hasAnyPermission(granted, requirement);
  if (isRule(requirement)) return resolveAccess(granted, requirement) === "allowed";
  if ("anyOf" in requirement) return hasAnyPermission(granted, requirement.anyOf);
  return hasAllPermissions(granted, (requirement as { allOf: readonly string[] }).allOf);
}

/**
 * How a route or menu item shows for these granted names (spec §6): "hidden" when `visible` is false or a failed
 * permission/validator hides it; "disabled" when `enabled` is false or a failed permission/validator disables it
 * (`whenDenied: "disable"`); else "allowed". A plain requirement (name, set, any-of, all-of, validator) hides when
 * it fails. Hidden wins over disabled.
 */
export function resolveAccess(granted: readonly string[], requirement: PermissionRequirement | undefined): Access {
  if (requirement === undefined) return "allowed";
  if (typeof requirement !== "object" || Array.isArray(requirement) || !isRule(requirement)) {
    return checkPermission(granted, requirement) ? "allowed" : "hidden";
  }
  const rule = requirement;
  if (rule.visible === false) return "hidden";
  const permitted =
    checkPermission(granted, rule.permission) && (rule.validator ? checkPermission(granted, rule.validator) : true);
  if (!permitted) return rule.whenDenied === "disable" ? "disabled" : "hidden";
  return rule.enabled === false ? "disabled" : "allowed";
}

/**
 * Turns ABP's `auth.grantedPolicies` map (name → true) into the list of granted names kept in login info
 * (spec §3 keeps the list; the server answers ABP's map, as existing ABP clients expect).
 */
export function grantedPolicyNames(map: Record<string, boolean> | null | undefined): string[] {
  return Object.entries(map ?? {})
    .filter(([, granted]) => granted === true)
    .map(([name]) => name)
    .sort();
}
