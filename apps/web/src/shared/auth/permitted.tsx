import { type ReactNode, useCallback, useSyncExternalStore } from "react";
import { type Access, checkPermission, type PermissionRequirement, resolveAccess } from "./permissions.ts";
import { getGrantedPolicies, subscribeSession } from "./session.ts";

const EMPTY: readonly string[] = [];
let lastKey = "";
let lastList: readonly string[] = EMPTY;

/** A stable snapshot of the granted names (same array while the names are the same, for useSyncExternalStore). */
function snapshot(): readonly string[] {
  const list = getGrantedPolicies();
  const key = list.join("\n");
  if (key !== lastKey) {
    lastKey = key;
    lastList = list.length ? list : EMPTY;
  }
  return lastList;
}

/** What {@link usePermission} returns. */
export interface PermissionApi {
  /** The signed-in user's granted permission names (spec §3 login info). */
  granted: readonly string[];
  /** Whether a requirement passes (spec §6; a master passes every permission check). */
  can: (requirement: PermissionRequirement | undefined) => boolean;
  /** How an item with this requirement shows: "allowed", "disabled" or "hidden" (spec §6). */
  access: (requirement: PermissionRequirement | undefined) => Access;
}

/**
 * The permission checks of spec §6 for the signed-in user, re-rendering when login info changes (sign-in,
 * permissions loaded, sign-out).
 */
export function usePermission(): PermissionApi {
  const granted = useSyncExternalStore(subscribeSession, snapshot, snapshot);
  const can = useCallback((r: PermissionRequirement | undefined) => checkPermission(granted, r), [granted]);
  const access = useCallback((r: PermissionRequirement | undefined) => resolveAccess(granted, r), [granted]);
  return { granted, can, access };
}

/**
 * Renders `children` only when the requirement passes (spec §6). With a render function as children it also
 * receives `disabled` for rules that disable rather than hide (`enabled: false`, `whenDenied: "disable"`).
 * `fallback` shows instead of hidden content.
 */
export function Permitted(props: {
  requirement: PermissionRequirement | undefined;
  children: ReactNode | ((state: { disabled: boolean }) => ReactNode);
  fallback?: ReactNode;
}) {
  const { access } = usePermission();
  const state = access(props.requirement);
  const fallback = props.fallback ?? null;
  if (state === "hidden") return fallback;
  if (typeof props.children === "function") return props.children({ disabled: state === "disabled" });
  return state === "allowed" ? props.children : fallback;
}
