import { BindType } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { ExclamationTriangleOutline } from "antd-mobile-icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { useProfile } from "../../../shared/api/profile.ts";
import { endSession } from "../../../shared/auth/logout.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { confirmDialog, PageShell } from "../../../shared/ui/index.ts";
import { SegmentedChoice } from "../../../shared/ui/segmented-choice.tsx";
import { Toast } from "../../../shared/ui/toast.ts";
import { logOff } from "../api/log-off.ts";
import { sendUserIdentityVerification } from "../api/send-user-identity-verification.ts";
import { CodeField } from "../components/code-button.tsx";
import { isCode } from "../rules.ts";
import "../account.css";

/**
 * DeleteAccount (spec §2, §5 "Delete account: security code verification first"): a warning about what happens to
 * the account and its households (sole-member households are deleted, administration passes to another member), a
 * security code sent to the account's own e-mail or phone (`send-useridentity-verification`, purpose
 * delete-account), a confirmation, then `log-off`; the local session is cleared and the app goes to Login.
 */
export function DeleteAccountScreen() {
  const { t } = useTranslation();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const email = profile.data?.email ?? null;
  const phone = profile.data?.phoneNumber
    ? `${profile.data.countryCode ?? ""} ${profile.data.phoneNumber}`.trim()
    : null;
  const [channel, setChannel] = useState<BindType | null>(null);
  const via: BindType = channel ?? (email ? BindType.Email : BindType.Phone);
  const [code, setCode] = useState("");
  const [sentTo, setSentTo] = useState("");
  const [busy, setBusy] = useState(false);

  const sendCode = async (): Promise<boolean> => {
    try {
      const { sentTo: target } = await sendUserIdentityVerification({ purpose: "delete-account", bindType: via });
      setSentTo(target);
      Toast.show({ icon: "success", content: t("register.codeSent") });
      return true;
    } catch (err) {
      Toast.show({ icon: "fail", content: errorMessage(err, t("errors.requestFailed")) });
      return false;
    }
  };

  const submit = async () => {
    if (!isCode(code)) {
      Toast.show({ content: t(code ? "findPassword.codeInvalid" : "register.codeRequired") });
      return;
    }
    const sure = await confirmDialog({
      title: t("deleteAccount.confirmTitle"),
      content: t("deleteAccount.confirmText"),
      confirmText: t("deleteAccount.submit"),
      danger: true,
    });
    if (!sure) return;
    setBusy(true);
    try {
      await logOff(code);
      endSession(queryClient);
      Toast.show({ icon: "success", content: t("deleteAccount.success") });
      navigateTo(PATHS.Login, null, { replace: true });
    } catch (err) {
      Toast.show({ icon: "fail", content: errorMessage(err, t("errors.requestFailed")) });
    } finally {
      setBusy(false);
    }
  };

  const options = [
    { value: BindType.Email, label: t("identity.email"), target: email, id: "email" },
    { value: BindType.Phone, label: t("identity.phone"), target: phone, id: "phone" },
  ].filter((o) => o.target);

  return (
    <PageShell title={t("routes.DeleteAccount")} testId="delete-account-screen">
      <div className="danger-card" data-testid="delete-account-warning">
        <h2 className="danger-card__title">
          <ExclamationTriangleOutline /> {t("deleteAccount.warningTitle")}
        </h2>
        <ul>
          <li>{t("deleteAccount.warningData")}</li>
          <li>{t("deleteAccount.warningSoleMember")}</li>
          <li>{t("deleteAccount.warningAdmin")}</li>
          <li>{t("deleteAccount.warningMember")}</li>
          <li>{t("deleteAccount.warningFinal")}</li>
        </ul>
      </div>
      <div className="panel">
        {options.length > 1 ? (
          <div className="field">
            <span className="field__label">{t("deleteAccount.sendVia")}</span>
            <SegmentedChoice
              label={t("deleteAccount.sendVia")}
              options={options.map((o) => ({ value: o.value, label: o.label, testId: `delete-account-via-${o.id}` }))}
              value={via}
              onChange={setChannel}
            />
          </div>
        ) : null}
        <p className="form__intro" data-testid="delete-account-target">
          {t("deleteAccount.codeTo", { target: options.find((o) => o.value === via)?.target ?? "—" })}
        </p>
        <CodeField
          label={t("deleteAccount.code")}
          value={code}
          onChange={setCode}
          onSend={sendCode}
          testId="delete-account-code"
          sendTestId="delete-account-send-code"
        />
        {sentTo ? (
          <p className="sent-to" data-testid="delete-account-sent-to">
            {t("deleteAccount.sentTo", { target: sentTo })}
          </p>
        ) : null}
        <Button
          block
          shape="rounded"
          size="large"
          className="danger-button"
          loading={busy}
          disabled={!profile.data}
          onClick={submit}
          data-testid="delete-account-submit"
        >
          {t("deleteAccount.submit")}
        </Button>
      </div>
    </PageShell>
  );
}
