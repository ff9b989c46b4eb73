import { NavBar } from "antd-mobile";
import type { CSSProperties, ReactNode } from "react";
import { handleBack } from "./back-stack.ts";

/** Props of {@link PageShell}. */
export interface PageShellProps {
  title: ReactNode;
  /** Show the back arrow (default true). */
  back?: boolean;
  /** The page's own back handling, run only when no dialog is open (spec §2). */
  onBack?: () => void;
  /** Right-hand text or node of the top bar. */
  right?: ReactNode;
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
 * right-hand text. Fills the viewport, scrolls its body, respects the status bar and safe areas.
 */
export function PageShell(props: PageShellProps) {
  const {
    title,
    back = true,
    onBack,
    right,
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
        <NavBar
          back={back ? "" : null}
          backIcon={back}
          onBack={() => handleBack(onBack)}
          right={
            right ? (
              <button type="button" className="page__right" onClick={onRight}>
                {right}
              </button>
            ) : null
          }
        >
          {title}
        </NavBar>
      </header>
      <main className="page__body">{children}</main>
      {footer ? <footer className="page__footer">{footer}</footer> : null}
    </div>
  );
}
