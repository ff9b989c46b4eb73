import { AppOutline, UserOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { Staged } from "../first-paint/staged.tsx";
import { goBack, navigateTo, PATHS, parseRouteParams, type RoutePath } from "../shared/navigation/index.ts";
import { badgeText, useUnreadMessageCount } from "../shared/realtime/unread.ts";

/**
 * Where a tab was tapped from, kept in the My tab's navigation params (so a reload keeps it): My opened from Home is
 * an entry of its own above Home, so back — the phone's, the browser's — returns to Home, and the Home tab goes back
 * to that entry instead of adding one (tapping between the tabs never piles up history).
 */
const FROM_HOME = { fromTab: "home" } as const;

/** Switches to `path`'s tab from the tab at `pathname`/`search` (see {@link FROM_HOME}). */
function switchTab(path: RoutePath, pathname: string, search: string): void {
  const onHome = pathname.toLowerCase() === PATHS.Home.toLowerCase();
  if (path === PATHS.My && onHome) {
    navigateTo(PATHS.My, FROM_HOME);
    return;
  }
  const openedFromHome = parseRouteParams<typeof FROM_HOME>(search).fromTab === FROM_HOME.fromTab;
  if (path === PATHS.Home && openedFromHome) goBack();
  else navigateTo(path, null, { replace: true });
}

/**
 * The bottom tab bar Home / My (spec §2); the My tab carries the unread-message badge (the message centre is one of its
 * entries; spec §2 My tab). Its own component, so a new unread count draws only the bar.
 */
function TabBar() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
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
            onClick={() => !active && switchTab(tab.path, pathname, search)}
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
 * tab's screen and the bar each come in a task of their own (`Staged`): short tasks, not one long one.
 */
export function IndexLayout() {
  return (
    <div className="tabs-layout">
      <main className="tabs-layout__body">
        <Staged>
          <Outlet />
        </Staged>
      </main>
      <Staged>
        <TabBar />
      </Staged>
    </div>
  );
}
