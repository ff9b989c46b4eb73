import { openWithBack } from "./back-stack.ts";
import type { ConfirmOptions } from "./dialogs.tsx";
import type { OpenListPickerOptions, PickerOption } from "./list-picker.tsx";

/**
 * Overlays whose code (antd-mobile's Dialog, Popup and SearchBar with their animation library) loads on the call, not
 * with the screen (it would delay the Device screen's first paint), and that behave as if they had opened at once: the
 * back entry is taken before the code loads ({@link openWithBack}), so a back pressed meanwhile, or the page going
 * away, cancels the opening like a cancel.
 */

/** The confirm dialog's code. */
const loadDialogs = () => import("./dialogs.tsx");
/** The list picker's code. */
const loadListPicker = () => import("./list-picker.tsx");

/**
 * Runs `open` through {@link openWithBack}: resolves with what the overlay answered, or `none` when back or the page
 * going away closed it, its opening was cancelled or its code did not load.
 */
function answered<M, T>(
  load: () => Promise<M>,
  open: (module: M, answer: (value: T) => void) => { close: () => void },
  none: T,
): Promise<T> {
  return new Promise<T>((resolve) => {
    let value = none;
    void openWithBack(
      load,
      (module, closed) =>
        open(module, (v) => {
          value = v;
          closed();
        }),
      () => resolve(value),
    ).then((shown) => {
      if (!shown) resolve(none);
    });
  });
}

/**
 * {@link import("./dialogs.tsx").confirmDialog} with its code loaded on the call (spec §2 back stack: back closes it
 * like "cancel", also while its code loads). Resolves true on confirm; false on cancel, a mask tap, back, the page
 * going away, or code that did not load.
 */
export function confirmLazily(options: ConfirmOptions): Promise<boolean> {
  return answered(loadDialogs, (m, answer) => m.showConfirm(options, answer), false);
}

/**
 * {@link import("./list-picker.tsx").openListPicker} with its code loaded on the call. Resolves the selection ([] after
 * "clear"); null on cancel, a mask tap, back, the page going away, or code that did not load.
 */
export function pickFromListLazily(options: OpenListPickerOptions): Promise<PickerOption[] | null> {
  return answered<typeof import("./list-picker.tsx"), PickerOption[] | null>(
    loadListPicker,
    (m, answer) => m.showListPicker(options, answer),
    null,
  );
}

/** Starts loading the two overlays' code (on a pointer down, before the tap that opens one). */
export function preloadLazyOverlays(): void {
  void loadDialogs().catch(() => {});
  void loadListPicker().catch(() => {});
}
