import type { TFamilyUser } from "@aquapilot/contract/wire";
import { Button, Skeleton, Tag } from "antd-mobile";
import { CloseCircleOutline, RightOutline, TeamOutline, UserAddOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell, StateBlock } from "../../../shared/ui/index.ts";
import { useFamily } from "../api/get-family.ts";
import { useFamilyUsers } from "../api/get-family-users.ts";
import { FamilyAvatar } from "../components/family-avatar.tsx";
import { isFamilyGone } from "../errors.ts";
import { formatDate } from "../format.ts";
import { currentUserName } from "../home-family.ts";
import type { FamilyParams } from "../params.ts";
import "../family.css";

/**
 * FamilyUserList (spec §2 /FamilyUserList): the members with their admin flag, the caller marked "You"; the
 * administrator opens FamilyUserDetails of the others and invites through FamilyQrcode (spec §6).
 */
export function FamilyUserListScreen() {
  const { t } = useTranslation();
  const { familyId } = useRouteParams<FamilyParams>();
  const family = useFamily(familyId);
  const users = useFamilyUsers(familyId);
  const admin = family.data?.isAdmin === true;
  const me = currentUserName();

  const gone = isFamilyGone(users.error) || isFamilyGone(family.error);

  return (
    <PageShell
      title={t("routes.FamilyUserList")}
      testId="family-user-list-screen"
      className="family-page"
      footer={
        admin ? (
          <Button
            block
            shape="rounded"
            color="primary"
            className="family-footer-button"
            onClick={() => navigateTo(PATHS.FamilyQrcode, { familyId })}
            data-testid="family-user-invite"
          >
            <UserAddOutline /> {t("familyUser.invite")}
          </Button>
        ) : undefined
      }
    >
      {gone ? (
        <StateBlock
          icon={<CloseCircleOutline />}
          title={t("family.notFound")}
          action={
            <Button color="primary" shape="rounded" onClick={() => navigateTo(PATHS.Home, null, { replace: true })}>
              {t("common.backHome")}
            </Button>
          }
        />
      ) : (
        <>
          <div className="family-section-head">
            <span>{family.data?.name ?? ""}</span>
            <span data-testid="family-user-count">
              {users.data ? t("familyUser.count", { count: users.data.length }) : ""}
            </span>
          </div>
          <div className="member-list" data-testid="family-user-list">
            {users.isPending ? (
              [0, 1].map((i) => (
                <div className="member-row" key={i}>
                  <Skeleton animated className="member-row__skeleton" />
                  <Skeleton.Paragraph lineCount={1} animated />
                </div>
              ))
            ) : (users.data ?? []).length === 0 ? (
              <StateBlock icon={<TeamOutline />} title={t("familyUser.empty")} />
            ) : (
              users.data?.map((u) => (
                <MemberRow
                  key={u.id}
                  user={u}
                  self={u.userName === me}
                  onOpen={
                    admin && u.userName !== me
                      ? () => navigateTo(PATHS.FamilyUserDetails, { familyId, familyUserId: u.id })
                      : undefined
                  }
                />
              ))
            )}
          </div>
          {admin ? <div className="family-hint">{t("familyUser.adminHint")}</div> : null}
        </>
      )}
    </PageShell>
  );
}

/** One member: avatar, name (or user name), "You", the admin badge and the join date. */
function MemberRow(props: { user: TFamilyUser; self: boolean; onOpen?: () => void }) {
  const { user, self, onOpen } = props;
  const { t } = useTranslation();
  const display = user.name || user.userName;
  const body = (
    <>
      <FamilyAvatar name={display} avatar={user.avatar} size={1.067} />
      <span className="member-row__body">
        <span className="member-row__top">
          <span className="member-row__name">{display}</span>
          {self ? <span className="member-row__you">({t("familyUser.you")})</span> : null}
        </span>
        <span className="member-row__meta">{t("familyUser.joinedAt", { time: formatDate(user.joinTime) })}</span>
      </span>
      <Tag
        color={user.isAdmin ? "warning" : "default"}
        fill="outline"
        round
        className="family-tag"
        data-testid="family-user-role"
      >
        {user.isAdmin ? t("familyUser.admin") : t("familyUser.member")}
      </Tag>
      {onOpen ? <RightOutline className="member-row__arrow" /> : null}
    </>
  );
  return onOpen ? (
    <button
      type="button"
      className="member-row member-row--link"
      onClick={onOpen}
      data-testid="family-user-item"
      data-user-name={user.userName}
      data-admin={user.isAdmin}
    >
      {body}
    </button>
  ) : (
    <div className="member-row" data-testid="family-user-item" data-user-name={user.userName} data-admin={user.isAdmin}>
      {body}
    </div>
  );
}
