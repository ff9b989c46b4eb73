import type { ToastShowProps } from "antd-mobile";
import { isValidElement, type ReactNode } from "react";
import { announce, clearAnnouncement, prepareLiveRegions } from "./live-region.ts";

type AntdToast = typeof import("antd-mobile").Toast;

let loaded: AntdToast | null = null;
/** The calls waiting for the chunk, chained so they run in call order. */
let pending: Promise<void> = Promise.resolve();

/** Runs `action` on antd-mobile's Toast now when it is loaded, else after loading it, in call order. */
function run(action: (toast: AntdToast) => void): void {
  if (loaded) {
    action(loaded);
    return;
  }
  pending = pending
    .then(async () => {
      loaded ??= (await import("./toast-impl.ts")).Toast;
      action(loaded);
    })
    .catch((err: unknown) => console.warn("[toast] not shown", err));
}

/**
 * The text a toast's content reads as: strings and numbers as they are, elements by their children (a component that
 * makes its text itself reads as nothing).
 */
function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return "";
}

/**
 * Tells screen readers what a toast says (WCAG 4.1.3 Status Messages): antd-mobile draws its toast under an
 * `aria-hidden` layer, so the text goes into the app's live regions instead — the assertive one (role "alert") for a
 * failure toast (icon "fail"), else the polite one (role "status"). A toast that stays until cleared (duration 0, e.g.
 * the loading indicator) stays announced until then.
 */
function announceToast(props: string | ToastShowProps): void {
  const options = typeof props === "string" ? { content: props } : props;
  announce(textOf(options.content), options.icon === "fail" ? "alert" : "status", options.duration === 0);
}

// The live regions go in the document with the app, long before a first toast: one added with its text is not read.
prepareLiveRegions();

/**
 * antd-mobile's `Toast` with the same `show` and `clear`, loaded on the first toast (its animation library
 * stays off the first screen). Calls made while it loads run afterwards in their order (a loading toast and its
 * `clear` never swap). `show` takes a text or {@link ToastShowProps}; nothing is returned. Every toast is also
 * announced to screen readers (WCAG 4.1.3 Status Messages): role "status" (polite), or role "alert" for a failure
 * (icon "fail"); `clear` ends the announcement too. Its look is antd-mobile's, unchanged.
 */
export const Toast = {
  show(props: string | ToastShowProps): void {
    announceToast(props);
    run((toast) => toast.show(props));
  },
  clear(): void {
    clearAnnouncement();
    run((toast) => toast.clear());
  },
};

/**
 * Shows a short text toast (spec §8 "Failed list and permission loads show the error as toast"), announced politely to
 * screen readers (WCAG 4.1.3). Blank text shows nothing.
 */
export function toast(text: string): void {
  if (text) Toast.show({ content: text, position: "center" });
}
