import type { TFamily } from "@aquapilot/contract/wire";
import { Button, List, Skeleton, Tag } from "antd-mobile";
import {
  AppOutline,
  ClockCircleOutline,
  CloseCircleOutline,
  EditSOutline,
  EnvironmentOutline,
  SystemQRcodeOutline,
  TagOutline,
  TeamOutline,
} from "antd-mobile-icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { openAddressSelect } from "../../../shared/map/index.ts";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { confirmDialog, PageShell, StateBlock, toast } from "../../../shared/ui/index.ts";
import { ListItem } from "../../../shared/ui/list-item.tsx";
import { useDeleteFamily } from "../api/delete-family.ts";
import { useFamily } from "../api/get-family.ts";
import { useUpdateFamilyAddress } from "../api/update-family-address.ts";
import { useUpdateFamilyAvatar } from "../api/update-family-avatar.ts";
import { useWithdrawFromFamily } from "../api/withdraw-from-family.ts";
import { AvatarPicker } from "../components/avatar-picker.tsx";
import { FamilyAvatar } from "../components/family-avatar.tsx";
import { isFamilyGone } from "../errors.ts";
import { formatDateTime, locationLine } from "../format.ts";
import { homeFamilyId, setHomeFamily } from "../home-family.ts";
import type { FamilyParams } from "../params.ts";
import "../family.css";

/**
 * FamilyDetails (spec §2 /FamilyDetails): avatar, name, role, address with a small static location line, members,
 * QR share, devices, creation time. The administrator (spec §6) changes the avatar, renames (→ FamilyUpdate), moves
 * the address (openAddressSelect) and deletes the household; a member may leave, while the administrator (the
 * household's only one) is told to hand the role over in Members or delete the household first. Leaving or deleting drops the family and its devices at once and returns to the home tab.
 */
export function FamilyDetailsScreen() {
  const { t } = useTranslation();
  const { familyId } = useRouteParams<FamilyParams>();
  const family = useFamily(familyId);

  if (family.isError && isFamilyGone(family.error)) {
    return (
      <PageShell title={t("routes.FamilyDetails")} testId="family-details-screen" className="family-page">
        <StateBlock
          testId="family-details-gone"
          icon={<CloseCircleOutline />}
          title={t("family.notFound")}
          action={
            <Button color="primary" shape="rounded" onClick={() => navigateTo(PATHS.Home, null, { replace: true })}>
              {t("common.backHome")}
            </Button>
          }
        />
      </PageShell>
    );
  }

  return (
    <PageShell title={t("routes.FamilyDetails")} testId="family-details-screen" className="family-page">
      {family.data ? (
        <FamilyDetailsBody family={family.data} />
      ) : family.isError ? (
        <StateBlock
          icon={<CloseCircleOutline />}
          title={errorMessage(family.error, t("family.loadFailed"))}
          action={
            <Button color="primary" shape="rounded" onClick={() => void family.refetch()}>
              {t("common.retry")}
            </Button>
          }
        />
      ) : (
        <div className="family-hero">
          <Skeleton animated className="family-hero__skeleton" />
          <Skeleton.Title animated />
        </div>
      )}
    </PageShell>
  );
}

function FamilyDetailsBody({ family }: { family: TFamily }) {
  const { t } = useTranslation();
  const admin = family.isAdmin;
  const updateAvatar = useUpdateFamilyAvatar();
  const updateAddress = useUpdateFamilyAddress();
  const remove = useDeleteFamily();
  const withdraw = useWithdrawFromFamily();
  const [pickAvatar, setPickAvatar] = useState(false);
  const [isHome, setIsHome] = useState(() => homeFamilyId() === family.id);
  const line = locationLine(family);

  const changeAvatar = async (avatar: string) => {
    setPickAvatar(false);
    try {
      await updateAvatar.mutateAsync({ familyId: family.id, avatar });
      toast(t("family.avatarSaved"));
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  const changeAddress = async () => {
    let picked: Awaited<ReturnType<typeof openAddressSelect>>;
    try {
      picked = await openAddressSelect(
        family.longitude !== null && family.latitude !== null
          ? { longitude: family.longitude, latitude: family.latitude }
          : undefined,
      );
    } catch (err) {
      toast(errorMessage(err, t("family.addressFailed")));
      return;
    }
    if (!picked) return;
    try {
      await updateAddress.mutateAsync({
        familyId: family.id,
        address: picked.address,
        longitude: picked.longitude,
        latitude: picked.latitude,
        province: picked.province || undefined,
        city: picked.city || undefined,
        district: picked.district || undefined,
      });
      toast(t("family.addressUpdated"));
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  const makeHome = () => {
    setHomeFamily(family);
    setIsHome(true);
    toast(t("family.homeSet"));
  };

  const openDevices = () => {
    setHomeFamily(family);
    navigateTo(PATHS.Home, null, { replace: true });
  };

  const askDelete = async () => {
    const ok = await confirmDialog({
      title: t("family.deleteConfirmTitle"),
      content: t("family.deleteConfirm", { name: family.name }),
      confirmText: t("family.deleteAction"),
      danger: true,
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(family.id);
      toast(t("family.deleted"));
      navigateTo(PATHS.Home, null, { replace: true });
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  const askLeave = async () => {
    if (admin) {
      // A household has exactly one administrator, who may not leave (spec §6): say so and how, instead of a
      // destructive confirmation the server would then refuse.
      const toMembers = await confirmDialog({
        title: t("family.adminLeaveTitle"),
        content: t("family.adminLeave"),
        confirmText: t("family.members"),
        cancelText: t("family.adminLeaveOk"),
      });
      if (toMembers) navigateTo(PATHS.FamilyUserList, { familyId: family.id });
      return;
    }
    const ok = await confirmDialog({
      title: t("family.leaveConfirmTitle"),
      content: t("family.leaveConfirm", { name: family.name }),
      confirmText: t("family.leaveAction"),
      danger: true,
    });
    if (!ok) return;
    try {
      await withdraw.mutateAsync(family.id);
      toast(t("family.left"));
      navigateTo(PATHS.Home, null, { replace: true });
    } catch (err) {
      // The last administrator: the server says to transfer or delete first.
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  return (
    <div className="family-details" data-testid="family-details" data-admin={admin}>
      <header className="family-hero">
        <button
          type="button"
          className="family-hero__avatar"
          onClick={() => (admin ? setPickAvatar(true) : undefined)}
          disabled={!admin}
          aria-label={t("family.avatar")}
          data-testid="family-details-avatar"
        >
          <FamilyAvatar name={family.name} avatar={family.avatar} size={1.92} />
          {admin ? (
            <span className="family-hero__avatar-edit">
              <EditSOutline />
            </span>
          ) : null}
        </button>
        <div className="family-hero__name" data-testid="family-details-name">
          {family.name}
        </div>
        <div className="family-hero__tags">
          <Tag color={admin ? "warning" : "default"} fill="outline" round data-testid="family-details-role">
            {admin ? t("family.admin") : t("family.member")}
          </Tag>
          {isHome ? (
            <Tag color="primary" fill="solid" round data-testid="family-details-home">
              {t("family.current")}
            </Tag>
          ) : null}
        </div>
        <div className="family-hero__note">{admin ? t("family.adminNote") : t("family.memberNote")}</div>
      </header>

      <List className="card-list" mode="card">
        <ListItem
          prefix={<TagOutline className="family-row-icon" />}
          extra={<span className="family-extra">{family.name}</span>}
          onClick={admin ? () => navigateTo(PATHS.FamilyUpdate, { familyId: family.id }) : undefined}
          arrowIcon={admin}
          data-testid="family-details-rename"
        >
          {t("family.name")}
        </ListItem>
        <ListItem
          prefix={<EnvironmentOutline className="family-row-icon" />}
          description={
            <span className="family-location" data-testid="family-details-location">
              {line || t("family.noLocation")}
            </span>
          }
          onClick={admin ? changeAddress : undefined}
          arrowIcon={admin}
          data-testid="family-details-address"
        >
          <span className="family-address" data-testid="family-details-address-text">
            {family.address || t("family.addressPlaceholder")}
          </span>
        </ListItem>
        <ListItem
          prefix={<ClockCircleOutline className="family-row-icon" />}
          extra={<span className="family-extra">{formatDateTime(family.creationTime)}</span>}
        >
          {t("family.createdAt")}
        </ListItem>
      </List>

      <List className="card-list" mode="card">
        <ListItem
          prefix={<TeamOutline className="family-row-icon" />}
          extra={<span data-testid="family-details-member-count">{family.memberCount}</span>}
          onClick={() => navigateTo(PATHS.FamilyUserList, { familyId: family.id })}
          data-testid="family-details-members"
        >
          {t("family.members")}
        </ListItem>
        {admin ? (
          <ListItem
            prefix={<SystemQRcodeOutline className="family-row-icon" />}
            onClick={() => navigateTo(PATHS.FamilyQrcode, { familyId: family.id })}
            data-testid="family-details-share"
          >
            {t("family.share")}
          </ListItem>
        ) : null}
        <ListItem
          prefix={<AppOutline className="family-row-icon" />}
          extra={<span data-testid="family-details-device-count">{family.deviceCount}</span>}
          onClick={openDevices}
          data-testid="family-details-devices"
        >
          {t("family.devices")}
        </ListItem>
      </List>

      <div className="family-actions">
        {!isHome ? (
          <Button block shape="rounded" color="primary" fill="outline" onClick={makeHome} data-testid="family-set-home">
            {t("family.setHome")}
          </Button>
        ) : null}
        <Button block shape="rounded" className="danger-button" onClick={askLeave} data-testid="family-leave">
          {t("family.leave")}
        </Button>
        {admin ? (
          <Button
            block
            shape="rounded"
            className="danger-button danger-button--solid"
            onClick={askDelete}
            data-testid="family-delete"
          >
            {t("family.delete")}
          </Button>
        ) : null}
      </div>

      {admin ? (
        <AvatarPicker
          visible={pickAvatar}
          current={family.avatar}
          onSelect={changeAvatar}
          onClose={() => setPickAvatar(false)}
        />
      ) : null}
    </div>
  );
}
