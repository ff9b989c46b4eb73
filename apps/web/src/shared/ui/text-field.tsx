import { EyeInvisibleOutline, EyeOutline } from "antd-mobile-icons";
import { type InputHTMLAttributes, type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";

/** Props of {@link TextField}: a labelled native input (so browser tests can fill it by data-testid). */
export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "prefix"> {
  label?: ReactNode;
  icon?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** Node at the right end (e.g. a "send code" button). */
  suffix?: ReactNode;
  /** Adds a show/hide toggle for password fields. */
  revealable?: boolean;
  testId?: string;
  /** data-testid of the show/hide toggle of a revealable field. */
  revealTestId?: string;
}

/**
 * A form row: optional label above, icon, native input, optional suffix; sized for a 375 px design. A revealable
 * field's toggle is a button named "Show password" in the user's language, pressed while the password shows; the box
 * draws the focus ring of its input (WCAG 2.4.7).
 */
export function TextField(props: TextFieldProps) {
  const { label, icon, value, onChange, suffix, revealable, testId, revealTestId, type, className, ...rest } = props;
  const { t } = useTranslation();
  const id = useId();
  const [shown, setShown] = useState(false);
  const inputType = revealable ? (shown ? "text" : "password") : type;
  return (
    <div className={`field ${className ?? ""}`}>
      {label ? (
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
      ) : null}
      <div className="field__box">
        {icon ? <span className="field__icon">{icon}</span> : null}
        <input
          {...rest}
          id={id}
          className="field__input"
          type={inputType}
          value={value}
          data-testid={testId}
          onChange={(e) => onChange(e.target.value)}
        />
        {revealable ? (
          <button
            type="button"
            className="field__reveal"
            aria-label={t("textField.showPassword")}
            aria-pressed={shown}
            data-testid={revealTestId}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? <EyeOutline /> : <EyeInvisibleOutline />}
          </button>
        ) : null}
        {suffix}
      </div>
    </div>
  );
}
