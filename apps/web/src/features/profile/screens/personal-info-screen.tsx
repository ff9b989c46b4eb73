import { ServiceRegion } from "@aquapilot/contract/wire";
import { List } from "antd-mobile";
import { LockOutline } from "antd-mobile-icons";
import { type ChangeEvent, type ReactNode, useRef } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { useProfile } from "../../../shared/api/profile.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { PageShell } from "../../../shared/ui/index.ts";
import { ListItem } from "../../../shared/ui/list-item.tsx";
import { Toast } from "../../../shared/ui/toast.ts";
import { useUpdateProfile } from "../api/update-profile.ts";
import { shrinkImage, uploadAvatar } from "../api/upload-avatar.ts";
import { Avatar } from "../components/avatar.tsx";
import { AVATAR_TYPES, checkAvatarFile } from "../rules.ts";
import "../profile.css";

function Value({ text, empty, testId }: { text: string | null | undefined; empty: string; testId: string }) {
  return (
    <span className={`personal__value ${text ? "" : "personal__value--empty"}`} data-testid={testId}>
      {text || empty}
    </span>
  );
}

/**
 * PersonalInfo (spec §2 /PersonalInfo): avatar (tap to upload: `POST /profile/avatar` multipart, then `POST /profile`
 * with the relative path; shown with the API host prefixed, spec §7 "Images"), user name and name (→ UpdateUserName),
 * e-mail and phone (→ UpdatePhoneEmail), the service region read-only with its note (spec §5 "Region chosen and not
 * changeable afterwards"), and change password (→ UpdatePassword).
 */
export function PersonalInfoScreen() {
  const { t } = useTranslation();
  const profile = useProfile();
  const update = useUpdateProfile();
  const fileInput = useRef<HTMLInputElement>(null);
  const p = profile.data;
  const notSet = t("personal.notSet");

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      Toast.show({ content: t("personal.avatarType") });
      return;
    }
    const blob = await shrinkImage(file);
    const check = checkAvatarFile(blob);
    if (check !== "ok") {
      Toast.show({ content: t(check === "type" ? "personal.avatarType" : "personal.avatarTooLarge") });
      return;
    }
    try {
      const path = await uploadAvatar(blob, blob === file ? file.name : "avatar.jpg");
      await update.mutateAsync({ avatar: path });
      Toast.show({ icon: "success", content: t("personal.avatarSaved") });
    } catch (err) {
      Toast.show({ icon: "fail", content: errorMessage(err, t("errors.requestFailed")) });
    }
  };

  const row = (key: string, label: ReactNode, value: ReactNode, onClick?: () => void) => (
    <ListItem
      key={key}
      extra={value}
      onClick={onClick}
      arrowIcon={onClick ? undefined : false}
      data-testid={`personal-row-${key}`}
    >
      {label}
    </ListItem>
  );

  const region =
    p?.serviceRegion === ServiceRegion.Europe
      ? t("register.regionEurope")
      : p?.serviceRegion === ServiceRegion.China
        ? t("register.regionChina")
        : "";

  return (
    <PageShell title={t("routes.PersonalInfo")} testId="personal-info-screen">
      <div className="personal">
        <List className="card-list" mode="card">
          <ListItem
            className="personal__avatar-row"
            extra={<Avatar src={p?.avatar} name={p?.name || p?.userName || ""} testId="personal-avatar-image" />}
            onClick={() => fileInput.current?.click()}
            description={t("personal.changeAvatar")}
            data-testid="personal-avatar"
          >
            {t("personal.avatar")}
          </ListItem>
          {row(
            "userName",
            t("personal.userName"),
            <Value text={p?.userName} empty={notSet} testId="personal-user-name" />,
            () => navigateTo(PATHS.UpdateUserName, { field: "userName" }),
          )}
          {row("name", t("personal.name"), <Value text={p?.name} empty={notSet} testId="personal-name" />, () =>
            navigateTo(PATHS.UpdateUserName, { field: "name" }),
          )}
        </List>
        <input
          ref={fileInput}
          className="personal__avatar-input"
          type="file"
          accept={AVATAR_TYPES.join(",")}
          onChange={pick}
          data-testid="personal-avatar-input"
        />

        <List className="card-list" mode="card">
          {row("email", t("personal.email"), <Value text={p?.email} empty={notSet} testId="personal-email" />, () =>
            navigateTo(PATHS.UpdatePhoneEmail, { type: "email" }),
          )}
          {row(
            "phone",
            t("personal.phone"),
            <Value
              text={p?.phoneNumber ? `${p.countryCode ?? ""} ${p.phoneNumber}`.trim() : null}
              empty={notSet}
              testId="personal-phone"
            />,
            () => navigateTo(PATHS.UpdatePhoneEmail, { type: "phone" }),
          )}
          {row(
            "region",
            t("personal.region"),
            <span className="region-lock personal__value" data-testid="personal-region">
              <LockOutline /> {region}
            </span>,
          )}
        </List>
        <p className="personal__note" data-testid="personal-region-note">
          {t("register.regionNote")}
        </p>

        <List className="card-list" mode="card">
          {row("password", t("personal.changePassword"), null, () => navigateTo(PATHS.UpdatePassword))}
        </List>
      </div>
    </PageShell>
  );
}
