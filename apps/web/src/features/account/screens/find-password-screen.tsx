import { BindType } from "@aquapilot/contract/wire";
import { Button, Tabs } from "antd-mobile";
import { LockOutline, MailOutline } from "antd-mobile-icons";
import type { CountryCode } from "libphonenumber-js/mobile";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { currentLanguage } from "../../../shared/i18n/index.ts";
import { navigateTo, PATHS, RETURN_TO_KEY, returnToParams, useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell, TextField } from "../../../shared/ui/index.ts";
import { LanguageSwitch } from "../../../shared/ui/language-switch.tsx";
import { Toast } from "../../../shared/ui/toast.ts";
import { forgetPasswordSendEmailCode } from "../api/forget-password-send-email-code.ts";
import { forgetPasswordSendPhoneCode } from "../api/forget-password-send-phone-code.ts";
import { useResetPassword } from "../api/reset-password.ts";
import { CodeField } from "../components/code-button.tsx";
import { PhoneField } from "../components/phone-field.tsx";
import { defaultCountry } from "../countries.ts";
import { saveDraft, useReturnedState } from "../country-choice.ts";
import { checkIdentity, type FindPasswordForm, validateFindPassword } from "../rules.ts";
import "../account.css";

/** The requestPageId FindPassword uses for CountrySelect. */
const PAGE_ID = "FindPassword";

/**
 * FindPassword (spec §2 /FindPassword, §5 "Find password: account, code, new password, confirmation matching"):
 * by e-mail or by phone with its country (CountrySelect), a code button with a 60 s countdown
 * (`forget_password_send_email_code` / `forget_password_send_phone_password_code`), then `reset_password`.
 * Success toasts and goes to Login, handing back the route asked for while signed out (param `returnTo`).
 */
export function FindPasswordScreen() {
  const { t } = useTranslation();
  // The route a signed-out owner asked for, passed on by Login and handed back to it.
  const { [RETURN_TO_KEY]: returnTo } = useRouteParams<{ [RETURN_TO_KEY]: string }>();
  const [form, setForm] = useReturnedState<FindPasswordForm>(
    PAGE_ID,
    () => ({
      mode: "email",
      account: "",
      country: defaultCountry(currentLanguage()),
      code: "",
      password: "",
      confirm: "",
    }),
    (draft, iso2) => ({ ...draft, country: iso2 as CountryCode }),
  );
  const reset = useResetPassword();
  const set = <K extends keyof FindPasswordForm>(key: K, value: FindPasswordForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const sendCode = async (): Promise<boolean> => {
    const identity = checkIdentity(form.mode, form.account, form.country);
    if (!identity.ok) {
      Toast.show({ content: t(identity.error) });
      return false;
    }
    try {
      if (identity.email) await forgetPasswordSendEmailCode(identity.email);
      else if (identity.phone) {
        await forgetPasswordSendPhoneCode({
          phoneNumber: identity.phone.nationalNumber,
          countryCode: identity.phone.countryCode,
        });
      }
      Toast.show({ icon: "success", content: t("register.codeSent") });
      return true;
    } catch (err) {
      Toast.show({ icon: "fail", content: errorMessage(err, t("errors.requestFailed")) });
      return false;
    }
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const problem = validateFindPassword(form);
    if (problem) {
      Toast.show({ content: t(problem) });
      return;
    }
    const identity = checkIdentity(form.mode, form.account, form.country);
    if (!identity.ok) return;
    reset.mutate(
      {
        account: identity.email ?? identity.phone?.nationalNumber ?? "",
        bindType: identity.email ? BindType.Email : BindType.Phone,
        ...(identity.phone ? { countryCode: identity.phone.countryCode } : {}),
        code: form.code.trim(),
        password: form.password,
        confirmPassword: form.confirm,
      },
      {
        onSuccess: () => {
          Toast.show({ icon: "success", content: t("findPassword.success") });
          navigateTo(PATHS.Login, returnToParams(returnTo), { replace: true });
        },
        onError: (err) => Toast.show({ icon: "fail", content: errorMessage(err, t("errors.requestFailed")) }),
      },
    );
  };

  const isEmail = form.mode === "email";
  return (
    <PageShell
      title={t("routes.FindPassword")}
      tone="white"
      right={<LanguageSwitch tone="dark" />}
      testId="find-password-screen"
    >
      <form className="form" onSubmit={submit} noValidate>
        <p className="form__intro">{t("findPassword.intro")}</p>
        <Tabs
          activeKey={form.mode}
          onChange={(k) => setForm((f) => ({ ...f, mode: k as FindPasswordForm["mode"], account: "" }))}
          className="form__tabs"
        >
          <Tabs.Tab key="email" title={<span data-testid="find-password-tab-email">{t("register.byEmail")}</span>} />
          <Tabs.Tab key="phone" title={<span data-testid="find-password-tab-phone">{t("register.byPhone")}</span>} />
        </Tabs>
        {isEmail ? (
          <TextField
            label={t("register.email")}
            icon={<MailOutline />}
            type="email"
            inputMode="email"
            autoComplete="email"
            value={form.account}
            onChange={(v) => set("account", v)}
            placeholder={t("register.emailPlaceholder")}
            testId="find-password-account"
          />
        ) : (
          <PhoneField
            label={t("register.phone")}
            country={form.country}
            requestPageId={PAGE_ID}
            beforeOpen={() => saveDraft(PAGE_ID, form)}
            value={form.account}
            onChange={(v) => set("account", v)}
            testId="find-password-account"
          />
        )}
        <CodeField
          label={t("register.code")}
          value={form.code}
          onChange={(v) => set("code", v)}
          onSend={sendCode}
          testId="find-password-code"
          sendTestId="find-password-send-code"
        />
        <TextField
          label={t("findPassword.newPassword")}
          icon={<LockOutline />}
          revealable
          autoComplete="new-password"
          value={form.password}
          onChange={(v) => set("password", v)}
          placeholder={t("register.passwordPlaceholder")}
          testId="find-password-password"
        />
        <TextField
          label={t("register.confirmPassword")}
          icon={<LockOutline />}
          revealable
          autoComplete="new-password"
          value={form.confirm}
          onChange={(v) => set("confirm", v)}
          placeholder={t("register.confirmPasswordPlaceholder")}
          testId="find-password-confirm"
        />
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          type="submit"
          loading={reset.isPending}
          data-testid="find-password-submit"
        >
          {t("findPassword.submit")}
        </Button>
        <div className="auth__row auth__row--center">
          <button
            type="button"
            className="link link--strong"
            onClick={() => navigateTo(PATHS.Login, returnToParams(returnTo), { replace: true })}
            data-testid="find-password-login"
          >
            {t("findPassword.backToLogin")}
          </button>
        </div>
      </form>
    </PageShell>
  );
}
