import { useQueryClient } from "@tanstack/react-query";
import { Button, Steps, Tabs } from "antd-mobile";
import { CheckCircleFill, LockOutline, MailOutline, PhonebookOutline } from "antd-mobile-icons";
import type { CountryCode } from "libphonenumber-js/mobile";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { useProfile } from "../../../shared/api/profile.ts";
import { queryKeys } from "../../../shared/api/query-keys.ts";
import { currentLanguage } from "../../../shared/i18n/index.ts";
import { goBack, useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell, TextField } from "../../../shared/ui/index.ts";
import { Toast } from "../../../shared/ui/toast.ts";
import { sendUserIdentityVerification } from "../api/send-user-identity-verification.ts";
import { updateEmail } from "../api/update-email.ts";
import { updatePhone } from "../api/update-phone.ts";
import { updatePhoneOrEmailVerification } from "../api/update-phone-or-email-verification.ts";
import { CodeField } from "../components/code-button.tsx";
import { PhoneField } from "../components/phone-field.tsx";
import { countryOfCallingCode, defaultCountry } from "../countries.ts";
import { saveDraft, useReturnedState } from "../country-choice.ts";
import { checkIdentity, type IdentityMode, isCode } from "../rules.ts";
import "../account.css";

/** Navigation params of /UpdatePhoneEmail: which identity to change first ("email" default, or "phone"). */
export interface UpdatePhoneEmailParams {
  type?: IdentityMode;
}

const PAGE_ID = "UpdatePhoneEmail";

/** The form of UpdatePhoneEmail, kept across a trip to CountrySelect. */
interface IdentityForm {
  step: 0 | 1 | 2;
  password: string;
  ticket: string;
  mode: IdentityMode;
  account: string;
  country: CountryCode | null;
  code: string;
}

/**
 * UpdatePhoneEmail (spec §2, §5 "Change phone or e-mail: password verification first, then code"):
 * step 1 password → `update-phone-or-email-verification` gives a ticket; step 2 the new e-mail or phone (country from
 * CountrySelect, validated for it) and a code sent to it (`send-useridentity-verification`, 60 s countdown) →
 * `update-email` / `update-phone`; step 3 done. The profile query is refreshed.
 */
export function UpdatePhoneEmailScreen() {
  const { t } = useTranslation();
  const { type } = useRouteParams<UpdatePhoneEmailParams>();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useReturnedState<IdentityForm>(
    PAGE_ID,
    () => ({
      step: 0,
      password: "",
      ticket: "",
      mode: type === "phone" ? "phone" : "email",
      account: "",
      country: null,
      code: "",
    }),
    (draft, iso2) => ({ ...draft, country: iso2 as CountryCode }),
  );
  const set = <K extends keyof IdentityForm>(key: K, value: IdentityForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const country =
    form.country ??
    countryOfCallingCode(profile.data?.countryCode, profile.data?.phoneNumber) ??
    defaultCountry(currentLanguage());
  const current = form.mode === "email" ? profile.data?.email : profile.data?.phoneNumber;
  const currentText =
    form.mode === "phone" && current && profile.data?.countryCode ? `${profile.data.countryCode} ${current}` : current;

  const verify = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!form.password) {
      Toast.show({ content: t("identity.passwordRequired") });
      return;
    }
    setBusy(true);
    try {
      const { ticket } = await updatePhoneOrEmailVerification(form.password);
      setForm((f) => ({ ...f, step: 1, ticket, password: "" }));
    } catch (err) {
      Toast.show({ icon: "fail", content: errorMessage(err, t("errors.requestFailed")) });
    } finally {
      setBusy(false);
    }
  };

  const sendCode = async (): Promise<boolean> => {
    const identity = checkIdentity(form.mode, form.account, country);
    if (!identity.ok) {
      Toast.show({ content: t(identity.error) });
      return false;
    }
    try {
      await sendUserIdentityVerification({
        purpose: "change-identity",
        ticket: form.ticket,
        ...(identity.email
          ? { email: identity.email }
          : { phoneNumber: identity.phone?.nationalNumber, countryCode: identity.phone?.countryCode }),
      });
      Toast.show({ icon: "success", content: t("register.codeSent") });
      return true;
    } catch (err) {
      Toast.show({ icon: "fail", content: errorMessage(err, t("errors.requestFailed")) });
      return false;
    }
  };

  const change = async (e?: FormEvent) => {
    e?.preventDefault();
    const identity = checkIdentity(form.mode, form.account, country);
    if (!identity.ok) {
      Toast.show({ content: t(identity.error) });
      return;
    }
    if (!isCode(form.code)) {
      Toast.show({ content: t(form.code ? "findPassword.codeInvalid" : "register.codeRequired") });
      return;
    }
    setBusy(true);
    try {
      const next = identity.email
        ? await updateEmail({ ticket: form.ticket, email: identity.email, code: form.code })
        : await updatePhone({
            ticket: form.ticket,
            phoneNumber: identity.phone?.nationalNumber ?? "",
            countryCode: identity.phone?.countryCode ?? "",
            code: form.code,
          });
      queryClient.setQueryData(queryKeys.profile, next);
      setForm((f) => ({ ...f, step: 2 }));
    } catch (err) {
      Toast.show({ icon: "fail", content: errorMessage(err, t("errors.requestFailed")) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageShell title={t("routes.UpdatePhoneEmail")} testId="update-phone-email-screen">
      <div className="steps-card">
        <Steps current={form.step}>
          <Steps.Step title={t("identity.stepVerify")} />
          <Steps.Step title={t("identity.stepNew")} />
          <Steps.Step title={t("identity.stepDone")} />
        </Steps>
      </div>

      {form.step === 0 ? (
        <form className="panel" onSubmit={verify} noValidate data-testid="identity-step-verify">
          <p className="form__intro">{t("identity.passwordIntro")}</p>
          <TextField
            label={t("identity.password")}
            icon={<LockOutline />}
            revealable
            autoComplete="current-password"
            value={form.password}
            onChange={(v) => set("password", v)}
            placeholder={t("identity.passwordPlaceholder")}
            testId="identity-password"
          />
          <Button
            block
            color="primary"
            shape="rounded"
            size="large"
            type="submit"
            loading={busy}
            data-testid="identity-verify"
          >
            {t("identity.next")}
          </Button>
        </form>
      ) : null}

      {form.step === 1 ? (
        <form className="panel" onSubmit={change} noValidate data-testid="identity-step-new">
          <Tabs
            activeKey={form.mode}
            onChange={(k) => setForm((f) => ({ ...f, mode: k as IdentityMode, account: "", code: "" }))}
            className="form__tabs"
          >
            <Tabs.Tab key="email" title={<span data-testid="identity-tab-email">{t("identity.email")}</span>} />
            <Tabs.Tab key="phone" title={<span data-testid="identity-tab-phone">{t("identity.phone")}</span>} />
          </Tabs>
          <div className="panel__current" data-testid="identity-current">
            {form.mode === "email" ? <MailOutline /> : <PhonebookOutline />}
            <span>{t("identity.current")}</span>
            <strong>{currentText || t("identity.notSet")}</strong>
          </div>
          {form.mode === "email" ? (
            <TextField
              label={t("identity.newEmail")}
              icon={<MailOutline />}
              type="email"
              inputMode="email"
              autoComplete="email"
              value={form.account}
              onChange={(v) => set("account", v)}
              placeholder={t("register.emailPlaceholder")}
              testId="identity-account"
            />
          ) : (
            <PhoneField
              label={t("identity.newPhone")}
              country={country}
              requestPageId={PAGE_ID}
              beforeOpen={() => saveDraft(PAGE_ID, { ...form, country })}
              value={form.account}
              onChange={(v) => set("account", v)}
              testId="identity-account"
            />
          )}
          <CodeField
            label={t("register.code")}
            value={form.code}
            onChange={(v) => set("code", v)}
            onSend={sendCode}
            testId="identity-code"
            sendTestId="identity-send-code"
          />
          <Button
            block
            color="primary"
            shape="rounded"
            size="large"
            type="submit"
            loading={busy}
            data-testid="identity-submit"
          >
            {t("common.confirm")}
          </Button>
        </form>
      ) : null}

      {form.step === 2 ? (
        <div className="panel" data-testid="identity-step-done">
          <div className="panel__done">
            <CheckCircleFill className="panel__done-icon" />
            <div className="panel__done-title">{t("identity.success")}</div>
            <div className="panel__done-text">
              {form.mode === "email"
                ? profile.data?.email
                : `${profile.data?.countryCode ?? ""} ${profile.data?.phoneNumber ?? ""}`}
            </div>
          </div>
          <Button
            block
            color="primary"
            shape="rounded"
            size="large"
            onClick={() => goBack()}
            data-testid="identity-done"
          >
            {t("identity.done")}
          </Button>
        </div>
      ) : null}
    </PageShell>
  );
}
