import { Dialog as AntdDialog, Popup as AntdPopup, type DialogProps, type PopupProps } from "antd-mobile";
import { usePopupVisible } from "./popup-visible.ts";

/**
 * antd-mobile's `Popup`, controlled by `visible`, whose close also works while it is still opening (see
 * {@link usePopupVisible}: antd-mobile 5.43 otherwise keeps a popup closed before its first animation frame in the
 * page for good). The app's declarative popups use this one; the lint refuses antd-mobile's own outside this file.
 */
export function Popup(props: PopupProps) {
  const shown = usePopupVisible(props.visible ?? false, props.afterShow);
  return <AntdPopup {...props} {...shown} />;
}

/**
 * antd-mobile's declarative `Dialog` with the same guard as {@link Popup} (its CenterPopup has the same loss). The
 * imperative `Dialog.show` has its own guard in shared/ui/dialogs.tsx.
 */
export function Dialog(props: DialogProps) {
  const shown = usePopupVisible(props.visible ?? false, props.afterShow);
  return <AntdDialog {...props} {...shown} />;
}
