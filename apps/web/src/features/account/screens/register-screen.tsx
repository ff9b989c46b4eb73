import { BindType, DISPLAY_NAME_MAX, LIMITS, ServiceRegion } from "@aquapilot/contract/wire";
import { Button, Tabs } from "antd-mobile";
import { CheckCircleFill, EnvironmentOutline, LockOutline, MailOutline, UserOutline } from "antd-mobile-icons";
import type { CountryCode } from "libphonenumber-js/mobile";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../shared/api/errors.ts";
import { signIn } from "../../../shared/auth/session.ts";
import { currentLanguage } from "../../../shared/i18n/index.ts";
import {
  goAfterSignIn,
  navigateTo,
  PATHS,
  RETURN_TO_KEY,
  returnToParams,
  useRouteParams,
} from "../../../shared/navigation/index.ts";
import { PageShell, TextField, useSingleFlight } from "../../../shared/ui/index.ts";
import { LanguageSwitch } from "../../../shared/ui/language-switch.tsx";
import { SegmentedChoice } from "../../../shared/ui/segmented-choice.tsx";
import { Toast } from "../../../shared/ui/toast.ts";
import { useRegister } from "../api/register.ts";
import { sendEmailPasswordCode } from "../api/send-email-password-code.ts";
import { sendPhonePasswordCode } from "../api/send-phone-password-code.ts";
import { CodeField } from "../components/code-button.tsx";
import { LegalText } from "../components/legal-text.tsx";
import { PhoneField } from "../components/phone-field.tsx";
import { defaultCountry } from "../countries.ts";
import { saveDraft, useReturnedState } from "../country-choice.ts";
import { checkIdentity, suggestedName } from "../rules.ts";
import "../account.css";

type Tab = "email" | "phone";

/** The requestPageId Register uses for CountrySelect. */
const PAGE_ID = "Register";

/** The Register form, kept across a trip to CountrySelect. */
interface RegisterForm {
  tab: Tab;
  region: ServiceRegion;
  country: CountryCode;
  account: string;
  /** The display name as typed; null until the owner edits it, while it follows the e-mail ({@link suggestedName}). */
  name: string | null;
  password: string;
  confirm: string;
  code: string;
  accepted: boolean;
}

/**
 * Register (spec §2 /Register, §5): by e-mail or phone (country from CountrySelect, number validated for it), service
 * region (fixed afterwards), account, display name (optional, at most 32 characters, prefilled by
 * {@link suggestedName}; sent trimmed as `name`, left out when empty), password,
 * confirmation, verification code with a 60 s resend countdown, privacy policy acceptance. On success it signs in
 * directly and opens the route asked for while signed out (param `returnTo`, passed on by Login), else home; if that
 * fails it goes to Login with a toast, keeping `returnTo`.
 */
export function RegisterScreen() {
  const { t } = useTranslation();
  // The route a signed-out owner asked for, passed on by Login: opened once the new account is signed in.
  const { [RETURN_TO_KEY]: returnTo } = useRouteParams<{ [RETURN_TO_KEY]: string }>();
  const [form, setForm] = useReturnedState<RegisterForm>(
    PAGE_ID,
    () => ({
      tab: "email",
      region: ServiceRegion.China,
      country: defaultCountry(currentLanguage()),
      account: "",
      name: null,
      password: "",
      confirm: "",
      code: "",
      accepted: false,
    }),
    (draft, iso2) => ({ ...draft, country: iso2 as CountryCode }),
  );
  const { tab, region, account, password, confirm, code, accepted } = form;
  const name = form.name ?? suggestedName(tab, account);
  const set =
    <K extends keyof RegisterForm>(key: K) =>
    (value: RegisterForm[K]) =>
      setForm((f) => ({ ...f, [key]: value }));
  const setTab = set("tab");
  const setRegion = set("region");
  const setAccount = set("account");
  const setName = set("name");
  const setPassword = set("password");
  const setConfirm = set("confirm");
  const setCode = set("code");
  const setAccepted = (update: (a: boolean) => boolean) => setForm((f) => ({ ...f, accepted: update(f.accepted) }));
  const register = useRegister();

  const fail = (text: string) => {
    Toast.show({ content: text });
    return false;
  };

  const sendCode = async (): Promise<boolean> => {
    const identity = checkIdentity(tab, account, form.country);
    if (!identity.ok) return fail(t(identity.error));
    try {
      if (identity.email) await sendEmailPasswordCode(identity.email);
      else if (identity.phone) {
        await sendPhonePasswordCode({
          phoneNumber: identity.phone.nationalNumber,
          countryCode: identity.phone.countryCode,
        });
      }
      Toast.show({ icon: "success", content: t("register.codeSent") });
      return true;
    } catch (err) {
      return fail(err instanceof Error && err.message ? err.message : t("errors.requestFailed"));
    }
  };

  const validate = (): boolean => {
    const identity = checkIdentity(tab, account, form.country);
    if (!identity.ok) return fail(t(identity.error));
    if (!password) return fail(t("register.passwordRequired"));
    if (password.length < LIMITS.minPasswordLength) return fail(t("register.passwordTooShort"));
    if (!confirm) return fail(t("register.confirmRequired"));
    if (password !== confirm) return fail(t("register.passwordsMismatch"));
    if (!code.trim()) return fail(t("register.codeRequired"));
    if (!accepted) return fail(t("register.privacyRequired"));
    return true;
  };

  // One registration per tap series: a second tap before the button shows as busy is dropped (it would be refused
  // for the spent verification code, and the owner would think sign-up failed).
  const submitting = useSingleFlight();
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    void submitting.run(async () => {
      if (!validate()) return;
      const identity = checkIdentity(tab, account, form.country);
      if (!identity.ok) return;
      const accountValue = identity.email ?? identity.phone?.nationalNumber ?? "";
      const displayName = name.trim();
      try {
        await register.mutateAsync({
          bindType: tab === "email" ? BindType.Email : BindType.Phone,
          account: accountValue,
          password,
          code: code.trim(),
          serviceRegion: region,
          ...(identity.phone ? { countryCode: identity.phone.countryCode } : {}),
          ...(displayName ? { name: displayName } : {}),
        });
      } catch (err) {
        Toast.show({
          icon: "fail",
          content: err instanceof ApiError && err.message ? err.message : t("errors.requestFailed"),
        });
        return;
      }
      try {
        await signIn(accountValue, password);
        Toast.show({ icon: "success", content: t("register.success") });
        goAfterSignIn(returnTo);
      } catch {
        Toast.show({ content: t("register.successLogin") });
        navigateTo(PATHS.Login, returnToParams(returnTo), { replace: true });
      }
    });
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
          <SegmentedChoice
            label={t("register.region")}
            options={[
              { value: ServiceRegion.China, label: t("register.regionChina"), testId: "register-region-china" },
              { value: ServiceRegion.Europe, label: t("register.regionEurope"), testId: "register-region-europe" },
            ]}
            value={region}
            onChange={setRegion}
          />
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
          <PhoneField
            label={t("register.phone")}
            country={form.country}
            requestPageId={PAGE_ID}
            beforeOpen={() => saveDraft(PAGE_ID, form)}
            value={account}
            onChange={setAccount}
            testId="register-account"
          />
        )}

        <TextField
          label={t("register.name")}
          icon={<UserOutline />}
          autoComplete="name"
          maxLength={DISPLAY_NAME_MAX}
          value={name}
          onChange={setName}
          hint={t("register.nameHint")}
          testId="register-name"
        />

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
        <CodeField
          label={t("register.code")}
          value={code}
          onChange={setCode}
          onSend={sendCode}
          testId="register-code"
          sendTestId="register-send-code"
        />

        <div className={`agree ${accepted ? "agree--on" : ""}`}>
          <span className="agree__box">
            {/* A native checkbox, unseen over the drawn circle: its own checked state is what assistive technology
                reads. */}
            <input
              type="checkbox"
              id="register-privacy"
              className="agree__input covering-input"
              checked={accepted}
              onChange={(e) => {
                const on = e.target.checked;
                setAccepted(() => on);
              }}
              data-testid="register-privacy"
            />
            {accepted ? <CheckCircleFill /> : null}
          </span>
          {/* The sentence is the checkbox's label: a tap on it toggles too (a wide target), except on its two links,
              which cancel the tap. */}
          <label htmlFor="register-privacy" className="agree__text">
            <LegalText
              i18nKey="register.privacyAccept"
              testIdPrefix="register"
              beforeOpen={() => saveDraft(PAGE_ID, form)}
            />
          </label>
        </div>

        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          type="submit"
          loading={submitting.running}
          data-testid="register-submit"
        >
          {t("register.submit")}
        </Button>
        <div className="auth__row auth__row--center">
          <span className="muted">{t("register.haveAccount")}</span>
          <button
            type="button"
            className="link link--strong"
            onClick={() => navigateTo(PATHS.Login, returnToParams(returnTo), { replace: true })}
            data-testid="register-login"
          >
            {t("register.login")}
          </button>
        </div>
      </form>
    </PageShell>
  );
}
