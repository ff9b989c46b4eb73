import { List } from "antd-mobile";
import { RightOutline } from "antd-mobile-icons";
import type { AriaAttributes, ReactNode } from "react";

/** Props of {@link ListItem}: antd-mobile's List.Item's that the app uses, plus a role for choices. */
export interface ListItemProps extends AriaAttributes {
  title?: ReactNode;
  description?: ReactNode;
  prefix?: ReactNode;
  extra?: ReactNode;
  children?: ReactNode;
  /** Run on a tap, Enter or Space; makes the row a button. */
  onClick?: () => void;
  /** Shows the row's arrow (default: when it has `onClick`); a node replaces the arrow. */
  arrowIcon?: ReactNode | boolean;
  disabled?: boolean;
  className?: string;
  /** "radio" for a row that is one choice of several (with `aria-checked`). */
  role?: "radio";
  "data-testid"?: string;
  "data-value"?: string;
}

/**
 * A row of an antd-mobile List. A row with `onClick` is a real `<button>` drawn with List.Item's classes: antd-mobile
 * draws it as an `<a>` without `href`, which no keyboard reaches and no screen reader announces as a control
 * (WCAG 2.1.1, 4.1.2); its parts are `span`s, as a button holds. A row without it is antd-mobile's own List.Item.
 */
export function ListItem(props: ListItemProps) {
  const { title, description, prefix, extra, children, onClick, arrowIcon, disabled, className, ...rest } = props;
  if (!onClick) {
    return (
      <List.Item
        title={title}
        description={description}
        prefix={prefix}
        extra={extra}
        arrowIcon={arrowIcon}
        disabled={disabled}
        className={className}
        {...rest}
      >
        {children}
      </List.Item>
    );
  }
  const arrow =
    arrowIcon === false ? null : arrowIcon === undefined || arrowIcon === true ? <RightOutline /> : arrowIcon;
  return (
    <button
      type="button"
      className={`adm-list-item list-item-button${disabled ? " adm-list-item-disabled" : ""}${className ? ` ${className}` : ""}`}
      onClick={onClick}
      disabled={disabled}
      {...rest}
    >
      <span className="adm-list-item-content">
        {prefix !== undefined && prefix !== null ? (
          <span className="adm-list-item-content-prefix">{prefix}</span>
        ) : null}
        <span className="adm-list-item-content-main">
          {title !== undefined && title !== null ? <span className="adm-list-item-title">{title}</span> : null}
          {children}
          {description !== undefined && description !== null ? (
            <span className="adm-list-item-description">{description}</span>
          ) : null}
        </span>
        {extra !== undefined && extra !== null ? <span className="adm-list-item-content-extra">{extra}</span> : null}
        {arrow ? <span className="adm-list-item-content-arrow">{arrow}</span> : null}
      </span>
    </button>
  );
}
