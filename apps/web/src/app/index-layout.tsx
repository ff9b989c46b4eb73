import { AppOutline, UserOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { navigateTo, PATHS } from "../shared/navigation/index.ts";
import { badgeText, useUnreadMessageCount } from "../shared/realtime/unread.ts";
import { Staged } from "../shared/snapshot/staged.tsx";

/**
 * The bottom tab bar Home / My (spec §2); the My tab carries the unread-message badge (the message centre is one of its
 * entries; spec §2 My tab). Its own component, so a new unread count draws only the bar.
 */
function TabBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const unread = badgeText(useUnreadMessageCount().data);
  const tabs = [
    { key: "home", path: PATHS.Home, icon: <AppOutline />, label: t("tabs.home"), badge: null },
    { key: "my", path: PATHS.My, icon: <UserOutline />, label: t("tabs.my"), badge: unread },
  ];
  return (
    <nav className="tab-bar">
      {tabs.map((tab) => {
        const active = pathname.toLowerCase() === tab.path.toLowerCase();
        return (
          <button
            key={tab.key}
            type="button"
            className={`tab-bar__item ${active ? "tab-bar__item--active" : ""}`}
            aria-current={active ? "page" : undefined}
            onClick={() => !active && navigateTo(tab.path, null, { replace: true })}
            data-testid={`tab-${tab.key}`}
          >
            <span className="tab-bar__icon">
              {tab.icon}
              {tab.badge ? (
                <span className="tab-bar__badge" data-testid={`tab-${tab.key}-badge`}>
                  {tab.badge}
                </span>
              ) : null}
            </span>
            <span className="tab-bar__label">{tab.label}</span>
          </button>
        );
      })}
    </nav>
  );
}

/**
 * `/index`: the main layout with the bottom tab bar Home / My (spec §2). Drawn beneath the last Home's snapshot, the
 * tab's screen and the bar each come in a task of their own (`Staged`, issue 12).
 */
export function IndexLayout() {
  return (
    <div className="tabs-layout">
      <div className="tabs-layout__body">
        <Staged>
          <Outlet />
        </Staged>
      </div>
      <Staged>
        <TabBar />
      </Staged>
    </div>
  );
}
