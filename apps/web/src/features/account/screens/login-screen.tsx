import { Button } from "antd-mobile";
import { LockOutline, UserOutline } from "antd-mobile-icons";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FirstScreenDrawn, Staged } from "../../../first-paint/staged.tsx";
import { clearEnding, ENDING_TEXT, readEnding } from "../../../shared/auth/ending.ts";
import { clearLoginInfo } from "../../../shared/auth/session.ts";
import {
  goAfterSignIn,
  navigateTo,
  PATHS,
  RETURN_TO_KEY,
  returnToParams,
  useRouteParams,
} from "../../../shared/navigation/index.ts";
import { deviceChannel } from "../../../shared/realtime/index.ts";
import { BrandMark } from "../../../shared/ui/brand-mark.tsx";
import { LanguageSwitch } from "../../../shared/ui/language-switch.tsx";
import { TextField } from "../../../shared/ui/text-field.tsx";
import { Toast } from "../../../shared/ui/toast.ts";
import { useLogin } from "../api/login.ts";
import { LegalText } from "../components/legal-text.tsx";
import { signInFailure } from "../sign-in-failure.ts";

/**
 * Login (spec §2 /login, §5): account (e-mail, phone or user name) and password; links to Register and FindPassword;
 * language switch; privacy note; why the last session ended when it ended without the owner signing out ("Your
 * password was changed on another device. Sign in again.", "Login expired"). Entering clears login info (spec §4);
 * success stores token + login info, loads the permissions and opens the route asked for while signed out (param
 * `returnTo`, a route of this app only, passed on to Register and FindPassword), else home. Opened first, it is drawn
 * beneath its prerendered copy (index.html) in parts, one task each, and replaces the copy at once when the last part
 * is in (first-paint/snapshot.ts): drawn in one task, its first render took 40-150 ms on a slow phone.
 */
export function LoginScreen() {
  const { t } = useTranslation();
  const [account, setAccount] = useState("");
  const [password, setPassword] = useState("");
  const login = useLogin();
  // The route a signed-out owner asked for (the route guard keeps it here); Register and FindPassword pass it on.
  const { [RETURN_TO_KEY]: returnTo } = useRouteParams<{ [RETURN_TO_KEY]: string }>();

  // Why the last session ended, when it did without the owner signing out (shared/auth/ending.ts).
  const [ending] = useState(readEnding);

  useEffect(() => {
    clearLoginInfo();
    void deviceChannel().stop();
  }, []);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!account.trim() || !password) {
      Toast.show({ content: t("login.required") });
      return;
    }
    login.mutate(
      { account, password },
      {
        onSuccess: () => {
          clearEnding();
          Toast.show({ icon: "success", content: t("login.success") });
          goAfterSignIn(returnTo);
        },
        onError: (err) => {
          const failure = signInFailure(err);
          Toast.show({ icon: "fail", content: "text" in failure ? failure.text : t(failure.key) });
        },
      },
    );
  };

  return (
    <main className="auth" data-testid="login-screen">
      <div className="auth__hero">
        <div className="auth__hero-top">
          <LanguageSwitch />
        </div>
        <div className="auth__brand">
          <BrandMark size="1.7rem" />
          <div>
            <div className="auth__brand-name">{t("app.name")}</div>
            <div className="auth__brand-tagline">{t("app.tagline")}</div>
          </div>
        </div>
        <div className="auth__waves" aria-hidden="true" />
      </div>
      <form className="auth__card" onSubmit={submit} noValidate>
        <Staged>
          <h1 className="auth__title">{t("login.welcome")}</h1>
          <p className="auth__subtitle">{t("login.subtitle")}</p>
          {ending ? (
            <div className="auth__ending" role="alert" data-testid="login-ending" data-ending={ending}>
              {t(ENDING_TEXT[ending])}
            </div>
          ) : null}
          <TextField
            icon={<UserOutline />}
            value={account}
            onChange={setAccount}
            placeholder={t("login.accountPlaceholder")}
            aria-label={t("login.account")}
            autoComplete="username"
            testId="login-account"
          />
          <TextField
            icon={<LockOutline />}
            value={password}
            onChange={setPassword}
            placeholder={t("login.passwordPlaceholder")}
            aria-label={t("login.password")}
            autoComplete="current-password"
            revealable
            testId="login-password"
          />
        </Staged>
        <Staged>
          <div className="auth__row auth__row--end">
            <button
              type="button"
              className="link"
              onClick={() => navigateTo(PATHS.FindPassword, returnToParams(returnTo))}
              data-testid="login-forgot"
            >
              {t("login.forgotPassword")}
            </button>
          </div>
          <Button
            block
            color="primary"
            shape="rounded"
            size="large"
            type="submit"
            loading={login.isPending}
            data-testid="login-submit"
          >
            {t("login.submit")}
          </Button>
          <div className="auth__row auth__row--center">
            <span className="muted">{t("login.noAccount")}</span>
            <button
              type="button"
              className="link link--strong"
              onClick={() => navigateTo(PATHS.Register, returnToParams(returnTo))}
              data-testid="login-register"
            >
              {t("login.register")}
            </button>
          </div>
        </Staged>
      </form>
      <Staged>
        <p className="auth__privacy" data-testid="login-legal">
          <LegalText i18nKey="login.privacyNote" testIdPrefix="login" />
        </p>
        <FirstScreenDrawn />
      </Staged>
    </main>
  );
}
