import { AppOutline, UserOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { navigateTo, PATHS } from "../shared/navigation/index.js";

/** `/index`: the main layout with the bottom tab bar Home / My (spec §2). */
export function IndexLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const tabs = [
    { key: "home", path: PATHS.Home, icon: <AppOutline />, label: t("tabs.home") },
    { key: "my", path: PATHS.My, icon: <UserOutline />, label: t("tabs.my") },
  ];
  return (
    <div className="tabs-layout">
      <div className="tabs-layout__body">
        <Outlet />
      </div>
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
              <span className="tab-bar__icon">{tab.icon}</span>
              <span className="tab-bar__label">{tab.label}</span>
            </button>
          );
        })}
      </nav>
    </div>
  );
}
