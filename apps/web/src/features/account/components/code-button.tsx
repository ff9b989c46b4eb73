import { MessageOutline } from "antd-mobile-icons";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { TextField } from "../../../shared/ui/text-field.tsx";

/** Seconds before a verification code may be requested again. */
export const CODE_COOLDOWN_SECONDS = 60;

/**
 * The "send code" button with its 60 s countdown: `onSend` resolves true when the code went out, which starts the
 * countdown; during it the button shows "Resend in N s" and is disabled.
 */
export function CodeButton({ onSend, testId }: { onSend: () => Promise<boolean>; testId?: string }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  const click = async () => {
    if (busy || left > 0) return;
    setBusy(true);
    try {
      if (await onSend()) setLeft(CODE_COOLDOWN_SECONDS);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="code-button" disabled={busy || left > 0} onClick={click} data-testid={testId}>
      {left > 0 ? t("register.resend", { seconds: left }) : t("register.sendCode")}
    </button>
  );
}

/**
 * The 6-digit verification code field with its send button (spec §5 Register, Find password, change of phone or
 * e-mail, account deletion): digits only, at most 6; `onSend` as for {@link CodeButton}.
 */
export function CodeField(props: {
  label: string;
  value: string;
  onChange: (digits: string) => void;
  onSend: () => Promise<boolean>;
  testId: string;
  sendTestId: string;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      label={props.label}
      icon={<MessageOutline />}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      limitHint={false}
      value={props.value}
      onChange={(v) => props.onChange(v.replace(/\D/g, ""))}
      placeholder={t("register.codePlaceholder")}
      testId={props.testId}
      suffix={<CodeButton onSend={props.onSend} testId={props.sendTestId} />}
    />
  );
}
