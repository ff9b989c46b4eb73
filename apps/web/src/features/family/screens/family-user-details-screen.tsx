import { Button, List, Skeleton, Tag } from "antd-mobile";
import { CloseCircleOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { goBack, navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { confirmDialog, PageShell, StateBlock, toast } from "../../../shared/ui/index.ts";
import { ListItem } from "../../../shared/ui/list-item.tsx";
import { useDeleteFamilyUser } from "../api/delete-family-user.ts";
import { useFamily } from "../api/get-family.ts";
import { useFamilyUsers } from "../api/get-family-users.ts";
import { useTransferAdministrator } from "../api/transfer-administrator.ts";
import { FamilyAvatar } from "../components/family-avatar.tsx";
import { formatDateTime } from "../format.ts";
import { currentUserName } from "../home-family.ts";
import "../family.css";

/** Navigation params of FamilyUserDetails: the family and the member's family-user id. */
export interface FamilyUserDetailsParams {
  familyId?: string;
  familyUserId?: string;
}

/**
 * FamilyUserDetails (spec §2 /FamilyUserDetails): a member's name, account, admin flag and join time. The
 * administrator (spec §6) removes the member or transfers the administration to them, each after a confirmation;
 * a household keeps exactly one administrator (the server refuses anything else).
 */
export function FamilyUserDetailsScreen() {
  const { t } = useTranslation();
  const { familyId, familyUserId } = useRouteParams<FamilyUserDetailsParams>();
  const family = useFamily(familyId);
  const users = useFamilyUsers(familyId);
  const remove = useDeleteFamilyUser();
  const transfer = useTransferAdministrator();
  const user = users.data?.find((u) => u.id === familyUserId);
  const admin = family.data?.isAdmin === true;
  const self = user?.userName === currentUserName();
  const display = user ? user.name || user.userName : "";

  const askRemove = async () => {
    if (!user) return;
    const ok = await confirmDialog({
      title: t("familyUser.removeConfirmTitle"),
      content: t("familyUser.removeConfirm", { name: display }),
      confirmText: t("familyUser.removeAction"),
      danger: true,
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(user.id);
      toast(t("familyUser.removed"));
      goBack();
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  const askTransfer = async () => {
    if (!user || !familyId) return;
    const ok = await confirmDialog({
      title: t("familyUser.transferConfirmTitle"),
      content: t("familyUser.transferConfirm", { name: display }),
      confirmText: t("familyUser.transferAction"),
    });
    if (!ok) return;
    try {
      await transfer.mutateAsync({ familyId, familyUserId: user.id });
      toast(t("familyUser.transferred"));
      goBack();
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  return (
    <PageShell title={t("routes.FamilyUserDetails")} testId="family-user-details-screen" className="family-page">
      {users.isPending ? (
        <div className="family-hero">
          <Skeleton animated className="family-hero__skeleton" />
          <Skeleton.Title animated />
        </div>
      ) : !user ? (
        <StateBlock
          testId="family-user-gone"
          icon={<CloseCircleOutline />}
          title={users.isError ? errorMessage(users.error, t("errors.requestFailed")) : t("familyUser.notFound")}
          action={
            <Button color="primary" shape="rounded" onClick={() => navigateTo(PATHS.FamilyUserList, { familyId })}>
              {t("routes.FamilyUserList")}
            </Button>
          }
        />
      ) : (
        <div className="family-details" data-testid="family-user-details" data-admin={user.isAdmin}>
          <header className="family-hero">
            <FamilyAvatar name={display} avatar={user.avatar} size={1.92} />
            <div className="family-hero__name" data-testid="family-user-name">
              {display}
              {self ? <span className="member-row__you"> ({t("familyUser.you")})</span> : null}
            </div>
            <div className="family-hero__tags">
              <Tag color={user.isAdmin ? "warning" : "default"} fill="outline" round data-testid="family-user-admin">
                {user.isAdmin ? t("familyUser.admin") : t("familyUser.member")}
              </Tag>
            </div>
          </header>
          <List className="card-list" mode="card">
            <ListItem extra={<span className="family-extra">{user.userName}</span>}>{t("familyUser.account")}</ListItem>
            <ListItem extra={<span className="family-extra">{user.name || "—"}</span>}>
              {t("familyUser.displayName")}
            </ListItem>
            <ListItem extra={user.isAdmin ? t("familyUser.admin") : t("familyUser.member")}>
              {t("familyUser.role")}
            </ListItem>
            <ListItem extra={<span className="family-extra">{formatDateTime(user.joinTime)}</span>}>
              {t("familyUser.joined")}
            </ListItem>
          </List>
          {admin && !self && !user.isAdmin ? (
            <div className="family-actions">
              <Button
                block
                shape="rounded"
                color="primary"
                fill="outline"
                loading={transfer.isPending}
                onClick={askTransfer}
                data-testid="family-user-transfer"
              >
                {t("familyUser.transfer")}
              </Button>
              <Button
                block
                shape="rounded"
                className="danger-button"
                loading={remove.isPending}
                onClick={askRemove}
                data-testid="family-user-remove"
              >
                {t("familyUser.remove")}
              </Button>
            </div>
          ) : null}
          {admin ? <div className="family-hint">{t("familyUser.adminHint")}</div> : null}
        </div>
      )}
    </PageShell>
  );
}
