import { Button } from "antd-mobile";
import { UserOutline } from "antd-mobile-icons";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { useProfile } from "../../../shared/api/profile.ts";
import { goBack, useRouteParams } from "../../../shared/navigation/index.ts";
import { getItem, setItem } from "../../../shared/storage/index.ts";
import { PageShell, TextField } from "../../../shared/ui/index.ts";
import { Toast } from "../../../shared/ui/toast.ts";
import { useUpdateProfile } from "../api/update-profile.ts";
import { NAME_MAX_LENGTH, USER_NAME_LENGTH, validateUserName } from "../rules.ts";
import "../profile.css";

/** Navigation params of /UpdateUserName: which field to edit, the user name (default) or the display name. */
export interface UpdateUserNameParams {
  field?: "userName" | "name";
}

/** Keeps login info and the per-user family selection (spec §3 userFamilyCache) under the new user name. */
function renameInStorage(from: string, to: string): void {
  const info = getItem("loginInfo");
  if (info && info.userName === from) setItem("loginInfo", { ...info, userName: to });
  const cache = getItem("userFamilyCache");
  if (cache?.[from] !== undefined) {
    const { [from]: familyId, ...rest } = cache;
    setItem("userFamilyCache", { ...rest, [to]: familyId });
  }
}

/**
 * UpdateUserName (spec §2 /UpdateUserName): edits the user name (2–64 characters, unique: the server answers 409
 * when it is taken) or, with `{field: "name"}`, the display name, through `POST /profile`; then goes back.
 */
export function UpdateUserNameScreen() {
  const { t } = useTranslation();
  const { field = "userName" } = useRouteParams<UpdateUserNameParams>();
  const profile = useProfile();
  const update = useUpdateProfile();
  const [value, setValue] = useState<string | null>(null);
  const current = (field === "name" ? profile.data?.name : profile.data?.userName) ?? "";
  const text = value ?? current;
  const max = field === "name" ? NAME_MAX_LENGTH : USER_NAME_LENGTH.max;

  useEffect(() => {
    if (value === null && profile.data) setValue(current);
  }, [profile.data, current, value]);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const next = text.trim();
    if (field === "userName") {
      const problem = validateUserName(next);
      if (problem) {
        Toast.show({ content: t(problem) });
        return;
      }
    }
    if (next === current.trim()) {
      goBack();
      return;
    }
    const before = profile.data?.userName ?? "";
    update.mutate(field === "name" ? { name: next || null } : { userName: next }, {
      onSuccess: (saved) => {
        if (field === "userName") renameInStorage(before, saved.userName);
        Toast.show({ icon: "success", content: t("personal.saved") });
        goBack();
      },
      onError: (err) => Toast.show({ icon: "fail", content: errorMessage(err, t("errors.requestFailed")) }),
    });
  };

  const label = field === "name" ? t("personal.name") : t("personal.userName");
  return (
    <PageShell
      title={field === "name" ? t("personal.editName") : t("routes.UpdateUserName")}
      testId="update-user-name-screen"
    >
      <form className="edit-form" onSubmit={submit} noValidate>
        <TextField
          label={label}
          icon={<UserOutline />}
          value={text}
          onChange={setValue}
          maxLength={max}
          autoComplete={field === "name" ? "name" : "username"}
          placeholder={field === "name" ? t("personal.namePlaceholder") : t("personal.userNamePlaceholder")}
          suffix={<span className="counter">{`${text.length}/${max}`}</span>}
          testId="update-user-name-input"
        />
        <p className="edit-form__hint">{field === "name" ? t("personal.nameHint") : t("personal.userNameRule")}</p>
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          type="submit"
          loading={update.isPending}
          data-testid="update-user-name-submit"
        >
          {t("personal.save")}
        </Button>
      </form>
    </PageShell>
  );
}
