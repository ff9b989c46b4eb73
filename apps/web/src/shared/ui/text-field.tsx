import { clampToCodeUnits } from "@aquapilot/contract/wire";
import { EyeInvisibleOutline, EyeOutline } from "antd-mobile-icons";
import { type InputHTMLAttributes, type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { PlaceholderLine } from "./placeholder-line.tsx";

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
  /**
   * With `maxLength`: whether "Up to N characters" shows under the field while the value is at the limit (default
   * true), so text cut by the limit (a long paste) is not cut silently. False for a fixed-length entry such as a
   * 6-digit code, where reaching the length is the normal end.
   */
  limitHint?: boolean;
  /**
   * What the field is for, shown under it at all times and named by the input's `aria-describedby` (data-testid
   * `<testId>-hint`). Unlike a placeholder it stays while the field has a value and wraps instead of being cut.
   */
  hint?: ReactNode;
}

/**
 * A form row: optional label above, icon, native input, optional suffix; sized for a 375 px design. A revealable
 * field's toggle is a button named "Show password" in the user's language, pressed while the password shows; the box
 * draws the focus ring of its input (WCAG 2.4.7).
 *
 * `maxLength` (UTF-16 code units, as the native attribute and the contract's `ZText` count) is kept by the input and,
 * for a value the browser let through (a composition, a script), by `onChange`, which then receives the first
 * `maxLength` code units. While the value is at the limit a hint under the field says "Up to N characters" in the
 * user's language (a polite live region the input names in `aria-describedby`; data-testid `<testId>-limit`), unless
 * `limitHint` is false. A `placeholder` is also written under the field for large text (see {@link PlaceholderLine}).
 */
export function TextField(props: TextFieldProps) {
  const {
    label,
    icon,
    value,
    onChange,
    suffix,
    revealable,
    testId,
    revealTestId,
    type,
    className,
    maxLength,
    limitHint = true,
    hint,
    "aria-describedby": describedBy,
    ...rest
  } = props;
  const { t } = useTranslation();
  const id = useId();
  const [shown, setShown] = useState(false);
  const inputType = revealable ? (shown ? "text" : "password") : type;
  const limit = limitHint && maxLength !== undefined && maxLength > 0 ? maxLength : undefined;
  const atLimit = limit !== undefined && value.length >= limit;
  const limitId = `${id}-limit`;
  const hintId = `${id}-hint`;
  const describers = [describedBy, hint ? hintId : null, atLimit ? limitId : null].filter(Boolean).join(" ");
  return (
    <div className={`field${typeof rest.placeholder === "string" ? " has-placeholder-line" : ""} ${className ?? ""}`}>
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
          maxLength={maxLength}
          aria-describedby={describers || undefined}
          data-testid={testId}
          onChange={(e) => {
            const next = e.target.value;
            // Not while an input method composes: cutting its text would break the composition; the browser applies
            // maxLength when the text is committed.
            const composing = (e.nativeEvent as InputEvent).isComposing === true;
            onChange(
              maxLength !== undefined && !composing && next.length > maxLength
                ? clampToCodeUnits(next, maxLength)
                : next,
            );
          }}
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
      {typeof rest.placeholder === "string" ? <PlaceholderLine text={rest.placeholder} /> : null}
      {hint ? (
        <div id={hintId} className="field__hint" data-testid={testId ? `${testId}-hint` : undefined}>
          {hint}
        </div>
      ) : null}
      {limit !== undefined ? (
        // Always in the document, so assistive technology announces the hint when it appears; without text it takes
        // no room.
        <div
          id={limitId}
          className="field__note"
          aria-live="polite"
          style={atLimit ? undefined : { marginTop: 0 }}
          data-testid={testId ? `${testId}-limit` : undefined}
        >
          {atLimit ? t("textField.limit", { count: limit }) : null}
        </div>
      ) : null}
    </div>
  );
}
