import { SHELL_CONFIG } from "./shell-config.ts";

/** Ids of messages, devices and households in a link: 1–64 letters, digits, `-` and `_`. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A household share code (`AQF1.<claims>.<signature>`, base64url parts): up to 1024 letters, digits, `.`, `-`, `_`. */
const SHARE_CODE = /^[A-Za-z0-9._-]{1,1024}$/;

/**
 * A route of the web app with its navigation params as the app itself writes them (spec §2; apps/web
 * shared/navigation `appUrl`: `?params=<JSON>`), as a location hash.
 */
function route(path: string, params?: Record<string, string>): string {
  if (!params) return `#${path}`;
  return `#${path}?${new URLSearchParams({ params: JSON.stringify(params) }).toString()}`;
}

/**
 * Deep links of the shells (the share-code QR and messages open the right screen in the app): the hash
 * route a link opens, or null for a link the app does not take. Accepted, with the scheme and hosts of
 * {@link SHELL_CONFIG}:
 * - `aquapilot://messages` and `aquapilot://message` → `#/MessageDetails` (the message centre, spec §2);
 *   `aquapilot://message/<id>` → that message (`params {"id"}`);
 * - `aquapilot://join/<shareCode>` → `#/FamilyList` with `params {"shareCode"}`: the household list opens its join
 *   panel with the code filled in (joining by share code; spec §2 FamilyList);
 * - `aquapilot://device/<deviceId>` and `aquapilot://device/<deviceId>?familyId=<familyId>` → the Device screen
 *   (`params {"deviceId", "familyId"}`, as Home and the message centre open it; without the household the screen
 *   shows the device but not its household's live channel);
 * - `https://<host>/#/<route>` (a link to the web app) → that route as it is, when it is one of the above.
 * Ids are 1–64 characters of letters, digits, `-` and `_`; share codes up to 1024 of those and `.`.
 */
export function deepLinkHash(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol === `${SHELL_CONFIG.deepLinkScheme}:`) {
    // aquapilot://message/42: host "message", path "/42"
    const kind = parsed.hostname;
    let value: string;
    try {
      value = decodeURIComponent(parsed.pathname.replace(/^\/+/, ""));
    } catch {
      return null;
    }
    if (kind === "messages" || (kind === "message" && value === "")) return route("/MessageDetails");
    if (kind === "message") return ID.test(value) ? route("/MessageDetails", { id: value }) : null;
    if (kind === "join") return SHARE_CODE.test(value) ? route("/FamilyList", { shareCode: value }) : null;
    if (kind === "device") {
      if (!ID.test(value)) return null;
      const familyId = parsed.searchParams.get("familyId");
      if (familyId === null) return route("/Device", { deviceId: value });
      return ID.test(familyId) ? route("/Device", { deviceId: value, familyId }) : null;
    }
    return null;
  }
  if (parsed.protocol === "https:" && SHELL_CONFIG.deepLinkHosts.includes(parsed.hostname)) {
    const hash = parsed.hash.replace(/^#/, "");
    const first = hash.split(/[/?]/)[1] ?? "";
    return ["MessageDetails", "FamilyList", "Device"].includes(first) ? `#${hash}` : null;
  }
  return null;
}
