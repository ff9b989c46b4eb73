import type { ToastShowProps } from "antd-mobile";

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
 * antd-mobile's `Toast` with the same `show` and `clear`, loaded on the first toast (its animation library
 * stays off the first screen). Calls made while it loads run afterwards in their order (a loading toast and its
 * `clear` never swap). `show` takes a text or {@link ToastShowProps}; nothing is returned.
 */
export const Toast = {
  show(props: string | ToastShowProps): void {
    run((toast) => toast.show(props));
  },
  clear(): void {
    run((toast) => toast.clear());
  },
};

/** Shows a short text toast (spec §8 "Failed list and permission loads show the error as toast"). */
export function toast(text: string): void {
  if (text) Toast.show({ content: text, position: "center" });
}
