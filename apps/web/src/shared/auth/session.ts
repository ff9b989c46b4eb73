import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../api/client.ts";
import { loginWithPassword } from "../api/token.ts";
import { clearSession, getItem, removeRetiredKeys, setItem } from "../storage/index.ts";
import { grantedPolicyNames } from "./permissions.ts";

/**
 * The signed-in session (spec §4): granted permissions load once per page session from
 * `GET /api/abp/application-configuration` and are kept in login info; sign-in and sign-out.
 */

let loaded: Promise<string[]> | null = null;
const listeners = new Set<() => void>();

function notify(): void {
  for (const l of listeners) l();
}

/** Subscribes to changes of login info (sign-in, permissions, sign-out); returns the unsubscribe function. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The granted permission names of the signed-in user (spec §3 login info), or [] when signed out. */
export function getGrantedPolicies(): string[] {
  return getItem("loginInfo")?.grantedPolicies ?? [];
}

/** Whether this page session has loaded the permissions already. */
export function permissionsLoaded(): boolean {
  return loaded !== null;
}

/**
 * Loads grantedPolicies once per page session (spec §4) and stores them in login info; later calls share the first
 * result. On failure the cached attempt is dropped and the error rethrown (the guard then signs out and reloads).
 */
export function loadGrantedPolicies(force = false): Promise<string[]> {
  if (loaded && !force) return loaded;
  const attempt = (async () => {
    const config = await api(endpoints.applicationConfiguration);
    const names = grantedPolicyNames(config.auth.grantedPolicies);
    const info = getItem("loginInfo");
    const token = getItem("token")?.accessToken ?? info?.token ?? "";
    setItem("loginInfo", {
      userName: config.currentUser.userName || info?.userName || "",
      grantedPolicies: names,
      token,
    });
    notify();
    return names;
  })();
  loaded = attempt;
  attempt.catch(() => {
    if (loaded === attempt) loaded = null;
  });
  return attempt;
}

/**
 * Signs in (spec §5 Login): password grant, then login info {userName, grantedPolicies, token} is stored and the
 * permissions are loaded. Errors: the token call's ApiError (e.g. code "invalid_grant"), or the permission load's.
 */
export async function signIn(account: string, password: string): Promise<void> {
  const token = await loginWithPassword(account, password);
  setItem("loginInfo", { userName: account, grantedPolicies: [], token: token.accessToken });
  await loadGrantedPolicies(true);
}

/**
 * Clears login info (spec §4 "Entering Login clears login info"): the stored login info with its token, the loaded
 * permissions, the last Home's snapshot and the retired keys (storage `removeRetiredKeys`): the next account must not
 * see them. The selected device, family cache and language stay.
 */
export function clearLoginInfo(): void {
  setItem("loginInfo", null);
  setItem("token", null);
  setItem("homeSnapshot", null);
  removeRetiredKeys();
  loaded = null;
  notify();
}

/** Signs out locally (spec §4 Logout): clears permissions, device, token and login info. */
export function signOut(): void {
  clearSession();
  loaded = null;
  notify();
}
