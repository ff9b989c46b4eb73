import { SHELL_CONFIG } from "./shell-config.ts";

/**
 * Deep links of the shells (issue 15 "the share-code QR and messages open the right screen in the app"): the hash
 * route a link opens, or null for a link the app does not take. Accepted, with the scheme and hosts of
 * {@link SHELL_CONFIG}:
 * - `aquapilot://message/<id>` and `aquapilot://messages` → `#/MessageDetails?id=<id>` / `#/MessageDetails` (spec §2
 *   message centre);
 * - `aquapilot://join/<shareCode>` → `#/FamilyList?code=<shareCode>` (issue 3 joining a household by share code);
 * - `aquapilot://device/<id>` → `#/Device?id=<id>`;
 * - `https://<host>/#/<route>` (a link to the web app) → that route, when its first segment is one of the above.
 * Ids and codes are 1–64 characters of letters, digits, `-` and `_`.
 */
export function deepLinkHash(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const token = /^[A-Za-z0-9_-]{1,64}$/;
  if (parsed.protocol === `${SHELL_CONFIG.deepLinkScheme}:`) {
    // aquapilot://message/42: host "message", path "/42"
    const [kind, value = ""] = [parsed.hostname, decodeURIComponent(parsed.pathname.replace(/^\/+/, ""))];
    if (kind === "messages" || (kind === "message" && value === "")) return "#/MessageDetails";
    if (!token.test(value)) return null;
    if (kind === "message") return `#/MessageDetails?id=${value}`;
    if (kind === "join") return `#/FamilyList?code=${value}`;
    if (kind === "device") return `#/Device?id=${value}`;
    return null;
  }
  if (parsed.protocol === "https:" && SHELL_CONFIG.deepLinkHosts.includes(parsed.hostname)) {
    const route = parsed.hash.replace(/^#/, "");
    const first = route.split(/[/?]/)[1] ?? "";
    return ["MessageDetails", "FamilyList", "Device"].includes(first) ? `#${route}` : null;
  }
  return null;
}
