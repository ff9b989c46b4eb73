import { LIMITS, PERMISSIONS } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { Badge, Button, List } from "antd-mobile";
import {
  ExclamationTriangleOutline,
  InformationCircleOutline,
  LinkOutline,
  MessageOutline,
  PhoneFill,
  QuestionCircleOutline,
  RightOutline,
  SetOutline,
  TeamOutline,
  UserOutline,
} from "antd-mobile-icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useProfile } from "../../../shared/api/profile.ts";
import { logout } from "../../../shared/auth/logout.ts";
import type { PermissionRequirement } from "../../../shared/auth/permissions.ts";
import { usePermission } from "../../../shared/auth/permitted.tsx";
import { navigateTo, PATHS, type RoutePath } from "../../../shared/navigation/index.ts";
import { badgeText, useUnreadMessageCount } from "../../../shared/realtime/unread.ts";
import { getItem } from "../../../shared/storage/index.ts";
import { confirmDialog } from "../../../shared/ui/index.ts";
import { ListItem } from "../../../shared/ui/list-item.tsx";
import { Avatar } from "../components/avatar.tsx";

interface MenuItem {
  key: string;
  icon: ReactNode;
  label: string;
  path: RoutePath;
  /** What the item needs (spec §6): hidden or disabled when the signed-in user lacks it. */
  permission?: PermissionRequirement;
  /** Badge text at the right (the message centre's unread count), none when null. */
  badge?: string | null;
}

/**
 * My tab (spec §2 /index/My): avatar, user name and e-mail from the profile, the menu of spec §2 (edit profile, help,
 * household management, message centre, after-sales, faults, about, settings, my shares) and logout. Menu items
 * declare their permission (spec §6): the message centre needs "Message", after-sales "AfterSale", faults
 * "Device.View" (hidden without), my shares "Family.Manage" (shown disabled without).
 */
export function MyScreen() {
  const { t } = useTranslation();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const { access } = usePermission();
  const userName = profile.data?.userName ?? getItem("loginInfo")?.userName ?? "";
  const displayName = profile.data?.name || userName;
  const contact = profile.data?.email || profile.data?.phoneNumber || "";
  const unread = useUnreadMessageCount();

  const groups: MenuItem[][] = [
    [
      { key: "editProfile", icon: <UserOutline />, label: t("my.editProfile"), path: PATHS.PersonalInfo },
      { key: "familyManagement", icon: <TeamOutline />, label: t("my.familyManagement"), path: PATHS.FamilyList },
      {
        key: "messageCentre",
        icon: <MessageOutline />,
        label: t("my.messageCentre"),
        path: PATHS.MessageDetails,
        permission: PERMISSIONS.message,
        badge: badgeText(unread.data),
      },
      {
        key: "myShares",
        icon: <LinkOutline />,
        label: t("my.myShares"),
        path: PATHS.FamilyShareList,
        permission: { permission: PERMISSIONS.familyManage, whenDenied: "disable" },
      },
    ],
    [
      {
        key: "afterSales",
        icon: <ToolOutlineFallback />,
        label: t("my.afterSales"),
        path: PATHS.AfterSaleList,
        permission: PERMISSIONS.afterSale,
      },
      {
        key: "faults",
        icon: <ExclamationTriangleOutline />,
        label: t("my.faults"),
        path: PATHS.Fault,
        permission: PERMISSIONS.deviceView,
      },
      { key: "help", icon: <QuestionCircleOutline />, label: t("my.help"), path: PATHS.Article },
    ],
    [
      { key: "settings", icon: <SetOutline />, label: t("my.settings"), path: PATHS.Setting },
      { key: "about", icon: <InformationCircleOutline />, label: t("my.about"), path: PATHS.About },
    ],
  ];

  const askLogout = async () => {
    if (await confirmDialog({ content: t("my.logoutConfirm"), confirmText: t("my.logout"), danger: true })) {
      await logout(queryClient);
    }
  };

  return (
    <div className="my" data-testid="my-screen">
      <h1 className="visually-hidden">{t("tabs.my")}</h1>
      <header className="my__hero">
        <button type="button" className="my__user" onClick={() => navigateTo(PATHS.PersonalInfo)} data-testid="my-user">
          <span className="my__avatar">
            <Avatar src={profile.data?.avatar} name={displayName} size="100%" testId="my-avatar" />
          </span>
          <span className="my__who">
            <span className="my__name" data-testid="my-user-name">
              {displayName || "—"}
            </span>
            <span className="my__contact" data-testid="my-user-contact">
              {contact}
            </span>
          </span>
          <RightOutline className="my__chevron" />
        </button>
      </header>
      <div className="my__groups">
        {groups
          .map((items) => items.filter((item) => access(item.permission) !== "hidden"))
          .filter((items) => items.length > 0)
          .map((items) => (
            <List key={items[0].key} className="card-list" mode="card">
              {items.map((item) => {
                const disabled = access(item.permission) === "disabled";
                return (
                  <ListItem
                    key={item.key}
                    prefix={<span className="menu-icon">{item.icon}</span>}
                    onClick={disabled ? undefined : () => navigateTo(item.path)}
                    disabled={disabled}
                    extra={
                      item.badge ? <Badge content={item.badge} data-testid={`my-menu-${item.key}-badge`} /> : undefined
                    }
                    data-testid={`my-menu-${item.key}`}
                  >
                    {item.label}
                  </ListItem>
                );
              })}
            </List>
          ))}
        <a className="my__service" href={`tel:${LIMITS.customerServicePhone}`}>
          <PhoneFill /> {t("my.servicePhone", { phone: LIMITS.customerServicePhone })}
        </a>
        <div className="my__logout-wrap">
          <Button block shape="rounded" size="large" className="my__logout" onClick={askLogout} data-testid="logout">
            {t("my.logout")}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** antd-mobile-icons has no wrench; a small inline one for after-sales. */
function ToolOutlineFallback() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <path
        d="M14.7 6.3a4 4 0 0 0-5.4 5.2L4 16.8 7.2 20l5.3-5.3a4 4 0 0 0 5.2-5.4l-2.4 2.4-2.2-.6-.6-2.2z"
        strokeLinejoin="round"
      />
    </svg>
  );
}
