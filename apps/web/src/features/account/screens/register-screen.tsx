import { BindType, LIMITS, ServiceRegion } from "@aquapilot/contract";
import { Button, Tabs, Toast } from "antd-mobile";
import { CheckCircleFill, EnvironmentOutline, LockOutline, MailOutline, MessageOutline } from "antd-mobile-icons";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../shared/api/errors.js";
import { signIn } from "../../../shared/auth/session.js";
import { navigateTo, PATHS } from "../../../shared/navigation/index.js";
import { PageShell, TextField } from "../../../shared/ui/index.js";
import { useRegister } from "../api/register.js";
import { sendEmailPasswordCode } from "../api/send-email-password-code.js";
import { sendPhonePasswordCode } from "../api/send-phone-password-code.js";
import { CodeButton } from "../components/code-button.js";
import { LanguageSwitch } from "../components/language-switch.js";

/** Country calling codes offered for phone registration (a short list until /CountrySelect is built). */
export const COUNTRY_CODES = ["+86", "+852", "+44", "+49", "+33", "+34", "+39", "+7", "+1"] as const;

type Tab = "email" | "phone";

/**
 * Register (spec §2 /Register, §5): by e-mail or phone, service region (fixed afterwards), account, password,
 * confirmation, verification code with a 60 s resend countdown, privacy policy acceptance. On success it signs in
 * directly; if that fails it goes to Login with a toast.
 */
export function RegisterScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>("email");
  const [region, setRegion] = useState<ServiceRegion>(ServiceRegion.China);
  const [countryCode, setCountryCode] = useState<string>("+86");
  const [account, setAccount] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [code, setCode] = useState("");
  const [accepted, setAccepted] = useState(false);
  const register = useRegister();

  const fail = (text: string) => {
    Toast.show({ content: text });
    return false;
  };

  const sendCode = async (): Promise<boolean> => {
    const value = account.trim();
    if (!value) return fail(t("register.accountRequired"));
    try {
      if (tab === "email") await sendEmailPasswordCode(value);
      else await sendPhonePasswordCode({ phoneNumber: value, countryCode });
      Toast.show({ icon: "success", content: t("register.codeSent") });
      return true;
    } catch (err) {
      return fail(err instanceof Error && err.message ? err.message : t("errors.requestFailed"));
    }
  };

  const validate = (): boolean => {
    if (!account.trim()) return fail(t("register.accountRequired"));
    if (!password) return fail(t("register.passwordRequired"));
    if (password.length < LIMITS.minPasswordLength) return fail(t("register.passwordTooShort"));
    if (!confirm) return fail(t("register.confirmRequired"));
    if (password !== confirm) return fail(t("register.passwordsMismatch"));
    if (!code.trim()) return fail(t("register.codeRequired"));
    if (!accepted) return fail(t("register.privacyRequired"));
    return true;
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!validate()) return;
    const accountValue = account.trim();
    register.mutate(
      {
        bindType: tab === "email" ? BindType.Email : BindType.Phone,
        account: accountValue,
        password,
        code: code.trim(),
        serviceRegion: region,
        ...(tab === "phone" ? { countryCode } : {}),
      },
      {
        onSuccess: async () => {
          try {
            await signIn(accountValue, password);
            Toast.show({ icon: "success", content: t("register.success") });
            navigateTo(PATHS.Home, null, { replace: true });
          } catch {
            Toast.show({ content: t("register.successLogin") });
            navigateTo(PATHS.Login, null, { replace: true });
          }
        },
        onError: (err) => {
          Toast.show({
            icon: "fail",
            content: err instanceof ApiError && err.message ? err.message : t("errors.requestFailed"),
          });
        },
      },
    );
  };

  const isEmail = tab === "email";
  return (
    <PageShell title={t("register.title")} tone="white" right={<LanguageSwitch tone="dark" />} testId="register-screen">
      <form className="form" onSubmit={submit} noValidate>
        <Tabs activeKey={tab} onChange={(k) => setTab(k as Tab)} className="form__tabs">
          <Tabs.Tab key="email" title={<span data-testid="register-tab-email">{t("register.byEmail")}</span>} />
          <Tabs.Tab key="phone" title={<span data-testid="register-tab-phone">{t("register.byPhone")}</span>} />
        </Tabs>

        <div className="field">
          <span className="field__label">
            <EnvironmentOutline /> {t("register.region")}
          </span>
          <div className="segmented" role="radiogroup" aria-label={t("register.region")}>
            {[
              { value: ServiceRegion.China, label: t("register.regionChina"), id: "china" },
              { value: ServiceRegion.Europe, label: t("register.regionEurope"), id: "europe" },
            ].map((o) => (
              <button
                key={o.id}
                type="button"
                role="radio"
                aria-checked={region === o.value}
                className={`segmented__item ${region === o.value ? "segmented__item--active" : ""}`}
                onClick={() => setRegion(o.value)}
                data-testid={`register-region-${o.id}`}
              >
                {o.label}
              </button>
            ))}
          </div>
          <div className="field__note">{t("register.regionNote")}</div>
        </div>

        {isEmail ? (
          <TextField
            label={t("register.email")}
            icon={<MailOutline />}
            type="email"
            inputMode="email"
            autoComplete="email"
            value={account}
            onChange={setAccount}
            placeholder={t("register.emailPlaceholder")}
            testId="register-account"
          />
        ) : (
          <TextField
            label={t("register.phone")}
            icon={
              <select
                className="field__select"
                aria-label={t("register.countryCode")}
                value={countryCode}
                onChange={(e) => setCountryCode(e.target.value)}
                data-testid="register-country-code"
              >
                {COUNTRY_CODES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            }
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            value={account}
            onChange={(v) => setAccount(v.replace(/\D/g, ""))}
            placeholder={t("register.phonePlaceholder")}
            testId="register-account"
          />
        )}

        <TextField
          label={t("register.password")}
          icon={<LockOutline />}
          revealable
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          placeholder={t("register.passwordPlaceholder")}
          testId="register-password"
        />
        <TextField
          label={t("register.confirmPassword")}
          icon={<LockOutline />}
          revealable
          autoComplete="new-password"
          value={confirm}
          onChange={setConfirm}
          placeholder={t("register.confirmPasswordPlaceholder")}
          testId="register-confirm-password"
        />
        <TextField
          label={t("register.code")}
          icon={<MessageOutline />}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(v) => setCode(v.replace(/\D/g, ""))}
          placeholder={t("register.codePlaceholder")}
          testId="register-code"
          suffix={<CodeButton onSend={sendCode} testId="register-send-code" />}
        />

        <button
          type="button"
          role="checkbox"
          aria-checked={accepted}
          className={`agree ${accepted ? "agree--on" : ""}`}
          onClick={() => setAccepted((a) => !a)}
          data-testid="register-privacy"
        >
          <span className="agree__box">{accepted ? <CheckCircleFill /> : null}</span>
          <span className="agree__text">{t("register.privacyAccept")}</span>
        </button>

        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          type="submit"
          loading={register.isPending}
          data-testid="register-submit"
        >
          {t("register.submit")}
        </Button>
        <div className="auth__row auth__row--center">
          <span className="muted">{t("register.haveAccount")}</span>
          <button
            type="button"
            className="link link--strong"
            onClick={() => navigateTo(PATHS.Login, null, { replace: true })}
            data-testid="register-login"
          >
            {t("register.login")}
          </button>
        </div>
      </form>
    </PageShell>
  );
}
