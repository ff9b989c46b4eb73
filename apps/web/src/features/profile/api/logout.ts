/** Logout moved to shared/auth (the My tab and Setting share it); re-exported for existing imports. */
export { logout } from "../../../shared/auth/logout.ts";
