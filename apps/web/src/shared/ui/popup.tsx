import { Dialog as AntdDialog, Popup as AntdPopup, type DialogProps, type PopupProps } from "antd-mobile";
import { CENTER_DIALOG, FocusScope, POPUP_DIALOG, withDialogAnchor } from "./focus-scope.tsx";
import { usePopupVisible } from "./popup-visible.ts";

/**
 * antd-mobile's `Popup`, controlled by `visible`, whose close also works while it is still opening (see
 * {@link usePopupVisible}: antd-mobile 5.43 otherwise keeps a popup closed before its first animation frame in the
 * page for good). The app's declarative popups use this one; the lint refuses antd-mobile's own outside this file.
 *
 * While `visible`, its sheet (`.adm-popup-body`) is a modal dialog for the keyboard and assistive technology
 * (WCAG 2.4.3 Focus Order, 2.1.2 No Keyboard Trap, 4.1.2 Name, Role, Value; see shared/ui/focus-trap.ts): the focus
 * moves in, Tab cycles inside, Escape runs back, and the focus returns to its opener on close. Its name is
 * `aria-label` when given (put on the sheet, not on antd-mobile's outer layer), else its title element
 * (`…__title` or a heading).
 */
export function Popup(props: PopupProps) {
  const shown = usePopupVisible(props.visible ?? false, props.afterShow);
  const { "aria-label": label, children, ...rest } = props;
  return (
    <AntdPopup {...rest} {...shown}>
      <FocusScope active={props.visible ?? false} within={POPUP_DIALOG} label={label} />
      {children}
    </AntdPopup>
  );
}

/**
 * antd-mobile's declarative `Dialog` with the same guard as {@link Popup} (its CenterPopup has the same loss). The
 * imperative `Dialog.show` has its own guard in shared/ui/dialogs.tsx. While `visible` it holds the keyboard focus as
 * {@link Popup} does (WCAG 2.4.3, 2.1.2, 4.1.2), named by its `title` unless `aria-label` is given.
 */
export function Dialog(props: DialogProps) {
  const shown = usePopupVisible(props.visible ?? false, props.afterShow);
  const anchor = <FocusScope active={props.visible ?? false} within={CENTER_DIALOG} />;
  return <AntdDialog {...props} {...shown} {...withDialogAnchor(props, anchor)} />;
}
