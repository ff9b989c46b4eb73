// The top bar is drawn with antd-mobile's NavBar classes and styles but our own markup: NavBar's back arrow is a
// `div` no keyboard reaches and no screen reader names, inside a `role="button"` left area.
import "antd-mobile/es/components/nav-bar/nav-bar.css";
import { LeftOutline } from "antd-mobile-icons";
import type { CSSProperties, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { handleBack } from "./back-stack.ts";

/** Props of {@link PageShell}. */
export interface PageShellProps {
  title: ReactNode;
  /** Show the back arrow (default true). */
  back?: boolean;
  /** The page's own back handling, run only when no dialog is open (spec §2). */
  onBack?: () => void;
  /**
   * Right-hand text or node of the top bar: a button running `onRight` when that is given, else shown as it is (a
   * control of its own, such as the language switch, is not nested in another button).
   */
  right?: ReactNode;
  /** The right-hand button's name for screen readers when `right` is an icon (WCAG 4.1.2). */
  rightLabel?: string;
  onRight?: () => void;
  children?: ReactNode;
  /** Page background: "grey" (lists, cards) or "white" (forms). */
  tone?: "grey" | "white";
  footer?: ReactNode;
  className?: string;
  style?: CSSProperties;
  testId?: string;
}

/**
 * A page with the top bar of spec §2: optional back arrow (closes the top dialog first, then the page's back) and
 * right-hand text. Fills the viewport, scrolls its body, respects the status bar and safe areas. For assistive
 * technology: the back arrow is a button named "Back" in the user's language, the title is the page's level-one
 * heading, the body its main landmark.
 */
export function PageShell(props: PageShellProps) {
  const {
    title,
    back = true,
    onBack,
    right,
    rightLabel,
    onRight,
    children,
    tone = "grey",
    footer,
    className,
    style,
    testId,
  } = props;
  return (
    <div className={`page page--${tone} ${className ?? ""}`} style={style} data-testid={testId}>
      <header className="page__bar">
        <TopBar title={title} back={back} onBack={onBack} right={right} rightLabel={rightLabel} onRight={onRight} />
      </header>
      <main className="page__body">{children}</main>
      {footer ? <footer className="page__footer">{footer}</footer> : null}
    </div>
  );
}

/** Props of {@link TopBar}: the top-bar part of {@link PageShellProps}. */
export type TopBarProps = Pick<PageShellProps, "title" | "back" | "onBack" | "right" | "rightLabel" | "onRight">;

/**
 * The top bar of spec §2 on its own (inside the caller's `header.page__bar`), for a full-screen view that is not a
 * PageShell (the address picker) as for PageShell itself: the back
 * arrow as a button named "Back" in the user's language (closing the top dialog first, then `onBack`), the title as a
 * level-one heading, the right-hand text or control.
 */
export function TopBar(props: TopBarProps) {
  const { title, back = true, onBack, right, rightLabel, onRight } = props;
  const { t } = useTranslation();
  return (
    <div className="adm-nav-bar">
      <div className="adm-nav-bar-left">
        {back ? (
          <button
            type="button"
            className="adm-nav-bar-back page__back"
            aria-label={t("common.back")}
            onClick={() => handleBack(onBack)}
          >
            <span className="adm-nav-bar-back-arrow" aria-hidden="true">
              <LeftOutline />
            </span>
          </button>
        ) : null}
      </div>
      <div className="adm-nav-bar-title">
        <h1 className="page__title">{title}</h1>
      </div>
      <div className="adm-nav-bar-right">
        {right && onRight ? (
          <button type="button" className="page__right" aria-label={rightLabel} onClick={onRight}>
            {right}
          </button>
        ) : right ? (
          <div className="page__right">{right}</div>
        ) : null}
      </div>
    </div>
  );
}
