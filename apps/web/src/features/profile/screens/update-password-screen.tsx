import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { LockOutline } from "antd-mobile-icons";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { endSession } from "../../../shared/auth/logout.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { PageShell, TextField } from "../../../shared/ui/index.ts";
import { Toast } from "../../../shared/ui/toast.ts";
import { useChangePassword } from "../api/change-password.ts";
import { type ChangePasswordForm, validateChangePassword } from "../rules.ts";
import "../profile.css";

/**
 * UpdatePassword (spec §2 /UpdatePassword, §5 "Change password: old password required; new at least 6 characters"):
 * current, new and confirmation; `change_password`; the server then ends every session, so the app clears its own,
 * toasts and goes to Login.
 */
export function UpdatePasswordScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const change = useChangePassword();
  const [form, setForm] = useState<ChangePasswordForm>({ current: "", next: "", confirm: "" });
  const set = (key: keyof ChangePasswordForm) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const problem = validateChangePassword(form);
    if (problem) {
      Toast.show({ content: t(problem) });
      return;
    }
    change.mutate(
      { currentPassword: form.current, newPassword: form.next },
      {
        onSuccess: () => {
          endSession(queryClient);
          Toast.show({ icon: "success", content: t("password.success") });
          navigateTo(PATHS.Login, null, { replace: true });
        },
        onError: (err) => Toast.show({ icon: "fail", content: errorMessage(err, t("errors.requestFailed")) }),
      },
    );
  };

  return (
    <PageShell title={t("routes.UpdatePassword")} testId="update-password-screen">
      <form className="edit-form" onSubmit={submit} noValidate>
        <TextField
          label={t("password.current")}
          icon={<LockOutline />}
          revealable
          autoComplete="current-password"
          value={form.current}
          onChange={set("current")}
          placeholder={t("password.currentPlaceholder")}
          testId="update-password-current"
        />
        <TextField
          label={t("password.new")}
          icon={<LockOutline />}
          revealable
          autoComplete="new-password"
          value={form.next}
          onChange={set("next")}
          placeholder={t("register.passwordPlaceholder")}
          testId="update-password-new"
        />
        <TextField
          label={t("password.confirm")}
          icon={<LockOutline />}
          revealable
          autoComplete="new-password"
          value={form.confirm}
          onChange={set("confirm")}
          placeholder={t("register.confirmPasswordPlaceholder")}
          testId="update-password-confirm"
        />
        <p className="edit-form__hint">{t("password.hint")}</p>
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          type="submit"
          loading={change.isPending}
          data-testid="update-password-submit"
        >
          {t("password.submit")}
        </Button>
      </form>
    </PageShell>
  );
}
