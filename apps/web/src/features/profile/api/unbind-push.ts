/** The push unbinding moved to shared/auth (logout uses it); re-exported for existing imports. */
export { appDeviceUnbinding, unbindPush } from "../../../shared/auth/push.ts";
