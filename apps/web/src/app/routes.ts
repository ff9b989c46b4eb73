import { PERMISSIONS } from "@aquapilot/contract/wire";
import type { QueryClient } from "@tanstack/react-query";
import type { ComponentType } from "react";
import type { PermissionRequirement } from "../shared/auth/permissions.ts";
import type { TextGroup } from "../shared/i18n/index.ts";
import { PATHS, type RouteName } from "../shared/navigation/index.ts";

/**
 * Every route of spec §2 as data. `screen` lazily imports the built screen; routes without one show the
 * "not built yet" page titled with the route name. `open` routes need no token (spec §2: Reload, the test pages,
 * Login, Register, Article, CountrySelect, FindPassword). `permission` is checked by the guard (spec §6).
 * `transition`: how the page enters (spec §2: /login has none).
 */
export interface AppRoute {
  name: RouteName;
  path: string;
  screen?: () => Promise<{ default: ComponentType }>;
  open?: boolean;
  permission?: PermissionRequirement;
  transition: "slide" | "none";
  /**
   * The text groups the screen shows (loaded with the screen's chunk, in the current language); all groups
   * when not given. Login and Home name theirs so the first screen downloads only those.
   */
  texts?: readonly TextGroup[];
  /**
   * Loads the function that starts the screen's first calls into the app's query client, used when the route is the
   * first screen (the calls leave at start-up, beside the screen's chunk, not after its first render). The
   * function resolves when the calls have settled and never rejects.
   */
  data?: () => Promise<(client: QueryClient) => Promise<void>>;
  /**
   * As the first screen, the app's first render waits (a few seconds at most) for the route's chunk, texts, first
   * calls and permissions, so the screen appears once, with its data, instead of a spinner, then an empty frame, then
   * the data, each a redraw of its own (the Device screen must be interactive within 2 s). Home does the same when a
   * snapshot of it is showing.
   */
  holdFirstRender?: boolean;
  /**
   * The query values the screen cannot open without (keys of its JSON `params`, spec §2) and its parent: opened
   * without one of them, the route goes to the parent, with the values of the parent's own needs it has, and a short
   * toast (the one check of the route wrapper, route-query.ts; no screen checks its own). A parent whose needs are not
   * met passes on to its own parent.
   */
  needs?: RouteNeeds;
  /** Child routes rendered inside this one (the /index tab layout). */
  children?: AppRoute[];
}

/** What a route needs in its query: see {@link AppRoute.needs}. */
export interface RouteNeeds {
  /** Keys of the JSON `params` query value that must hold a non-empty string or a number. */
  params: readonly string[];
  /** The route to go to when one is missing. */
  parent: RouteName;
}

/** A household's screens need its id; without it they go to `parent`. */
const familyNeeds = (parent: RouteName): RouteNeeds => ({ params: ["familyId"], parent });
/** A device's screens need its id; without it they go to `parent`. */
const deviceNeeds = (parent: RouteName): RouteNeeds => ({ params: ["deviceId"], parent });

const lazyNamed =
  <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) =>
  () =>
    load().then((m) => ({ default: m[name] as ComponentType }));

/** A route whose screen is not built yet (it shows the placeholder page). */
const pending = (name: RouteName, extra: Partial<AppRoute> = {}): AppRoute => ({
  name,
  path: PATHS[name],
  transition: "slide",
  ...extra,
});

/** The route table of spec §2. The root `/` redirects to /index/home (see router.tsx). */
export const ROUTES: AppRoute[] = [
  {
    name: "Index",
    texts: ["start", "home"],
    path: PATHS.Index,
    transition: "none",
    screen: lazyNamed(() => import("./index-layout.tsx"), "IndexLayout"),
    children: [
      {
        name: "Home",
        texts: ["start", "home"],
        path: PATHS.Home,
        transition: "none",
        screen: lazyNamed(() => import("../features/home/screens/home-screen.tsx"), "HomeScreen"),
        data: () => import("../features/home/prefetch.ts").then((m) => m.prefetchHome),
      },
      {
        name: "My",
        texts: ["start", "home"],
        path: PATHS.My,
        transition: "none",
        screen: lazyNamed(() => import("../features/profile/screens/my-screen.tsx"), "MyScreen"),
      },
    ],
  },
  {
    name: "NoFamily",
    path: PATHS.NoFamily,
    transition: "slide",
    screen: lazyNamed(() => import("../features/family/screens/no-family-screen.tsx"), "NoFamilyScreen"),
  },
  pending("DeviceSort", {
    screen: lazyNamed(() => import("../features/device-settings/screens/device-sort-screen.tsx"), "DeviceSortScreen"),
  }),
  {
    name: "Test",
    path: PATHS.Test,
    open: true,
    transition: "slide",
    screen: lazyNamed(() => import("../features/test-pages/test-screen.tsx"), "TestScreen"),
  },
  {
    name: "Test2",
    path: PATHS.Test2,
    open: true,
    transition: "slide",
    screen: lazyNamed(() => import("../features/test-pages/test2-screen.tsx"), "Test2Screen"),
  },
  {
    name: "Test3",
    path: PATHS.Test3,
    open: true,
    transition: "slide",
    screen: lazyNamed(() => import("../features/test-pages/test3-screen.tsx"), "Test3Screen"),
  },
  {
    name: "Login",
    texts: ["start"],
    path: PATHS.Login,
    open: true,
    transition: "none",
    screen: lazyNamed(() => import("../features/account/screens/login-screen.tsx"), "LoginScreen"),
  },
  {
    name: "Register",
    texts: ["start", "account"],
    path: PATHS.Register,
    open: true,
    transition: "slide",
    screen: lazyNamed(() => import("../features/account/screens/register-screen.tsx"), "RegisterScreen"),
  },
  {
    name: "CountrySelect",
    texts: ["start", "account"],
    path: PATHS.CountrySelect,
    open: true,
    transition: "slide",
    screen: lazyNamed(() => import("../features/account/screens/country-select-screen.tsx"), "CountrySelectScreen"),
  },
  {
    name: "FindPassword",
    texts: ["start", "account"],
    path: PATHS.FindPassword,
    open: true,
    transition: "slide",
    screen: lazyNamed(() => import("../features/account/screens/find-password-screen.tsx"), "FindPasswordScreen"),
  },
  pending("MessageDetails", {
    permission: PERMISSIONS.message,
    screen: lazyNamed(() => import("../features/message/screens/message-details-screen.tsx"), "MessageDetailsScreen"),
  }),
  pending("FamilyList", {
    screen: lazyNamed(() => import("../features/family/screens/family-list-screen.tsx"), "FamilyListScreen"),
  }),
  pending("FamilyCreate", {
    screen: lazyNamed(() => import("../features/family/screens/family-create-screen.tsx"), "FamilyCreateScreen"),
  }),
  {
    name: "AddressSelect",
    path: PATHS.AddressSelect,
    transition: "slide",
    screen: lazyNamed(() => import("../shared/map/address-select-screen.tsx"), "AddressSelectScreen"),
  },
  pending("FamilyDetails", {
    needs: familyNeeds("FamilyList"),
    screen: lazyNamed(() => import("../features/family/screens/family-details-screen.tsx"), "FamilyDetailsScreen"),
  }),
  pending("FamilyUpdate", {
    needs: familyNeeds("FamilyDetails"),
    screen: lazyNamed(() => import("../features/family/screens/family-update-screen.tsx"), "FamilyUpdateScreen"),
  }),
  pending("FamilyQrcode", {
    needs: familyNeeds("FamilyDetails"),
    screen: lazyNamed(() => import("../features/family/screens/family-qrcode-screen.tsx"), "FamilyQrcodeScreen"),
  }),
  pending("FamilyUserList", {
    needs: familyNeeds("FamilyDetails"),
    screen: lazyNamed(() => import("../features/family/screens/family-user-list-screen.tsx"), "FamilyUserListScreen"),
  }),
  pending("FamilyUserDetails", {
    needs: { params: ["familyId", "familyUserId"], parent: "FamilyUserList" },
    screen: lazyNamed(
      () => import("../features/family/screens/family-user-details-screen.tsx"),
      "FamilyUserDetailsScreen",
    ),
  }),
  pending("FamilyShareList", {
    screen: lazyNamed(() => import("../features/family/screens/family-share-list-screen.tsx"), "FamilyShareListScreen"),
  }),
  pending("Device", {
    needs: deviceNeeds("Home"),
    screen: lazyNamed(() => import("../features/device/screens/device-screen.tsx"), "DeviceScreen"),
    texts: ["start", "home", "device"],
    data: () => import("../features/device/prefetch.ts").then((m) => m.prefetchDevice),
    holdFirstRender: true,
  }),
  pending("DeviceAttribute", {
    needs: deviceNeeds("Device"),
    screen: lazyNamed(() => import("../features/device/screens/device-attribute-screen.tsx"), "DeviceAttributeScreen"),
  }),
  pending("DeviceNameUpdate", {
    needs: deviceNeeds("DeviceInfo"),
    screen: lazyNamed(
      () => import("../features/device-settings/screens/device-name-update-screen.tsx"),
      "DeviceNameUpdateScreen",
    ),
  }),
  pending("DeviceInfo", {
    needs: deviceNeeds("DeviceAttribute"),
    screen: lazyNamed(() => import("../features/device-settings/screens/device-info-screen.tsx"), "DeviceInfoScreen"),
  }),
  pending("DeviceSetting", {
    needs: deviceNeeds("DeviceAttribute"),
    permission: PERMISSIONS.deviceSetting,
    screen: lazyNamed(
      () => import("../features/device-settings/screens/device-setting-screen.tsx"),
      "DeviceSettingScreen",
    ),
  }),
  pending("DeviceNetwork", {
    screen: lazyNamed(
      () => import("../features/network-setup/screens/device-network-screen.tsx"),
      "DeviceNetworkScreen",
    ),
  }),
  pending("DeviceNetworkNameUpdate", {
    needs: deviceNeeds("Home"),
    screen: lazyNamed(
      () => import("../features/device-settings/screens/device-network-name-update-screen.tsx"),
      "DeviceNetworkNameUpdateScreen",
    ),
  }),
  pending("DeviceImage", {
    needs: deviceNeeds("DeviceInfo"),
    screen: lazyNamed(() => import("../features/device-settings/screens/device-image-screen.tsx"), "DeviceImageScreen"),
  }),
  pending("Fault", {
    screen: lazyNamed(() => import("../features/fault/screens/fault-screen.tsx"), "FaultScreen"),
  }),
  pending("Article", {
    open: true,
    screen: lazyNamed(() => import("../features/article/screens/article-screen.tsx"), "ArticleScreen"),
  }),
  {
    name: "PersonalInfo",
    path: PATHS.PersonalInfo,
    transition: "slide",
    screen: lazyNamed(() => import("../features/profile/screens/personal-info-screen.tsx"), "PersonalInfoScreen"),
  },
  {
    name: "About",
    path: PATHS.About,
    transition: "slide",
    screen: lazyNamed(() => import("../features/settings/screens/about-screen.tsx"), "AboutScreen"),
  },
  {
    name: "Setting",
    path: PATHS.Setting,
    transition: "slide",
    screen: lazyNamed(() => import("../features/settings/screens/setting-screen.tsx"), "SettingScreen"),
  },
  {
    name: "UpdatePassword",
    path: PATHS.UpdatePassword,
    transition: "slide",
    screen: lazyNamed(() => import("../features/profile/screens/update-password-screen.tsx"), "UpdatePasswordScreen"),
  },
  {
    name: "UpdatePhoneEmail",
    path: PATHS.UpdatePhoneEmail,
    transition: "slide",
    screen: lazyNamed(
      () => import("../features/account/screens/update-phone-email-screen.tsx"),
      "UpdatePhoneEmailScreen",
    ),
  },
  {
    name: "UpdateUserName",
    path: PATHS.UpdateUserName,
    transition: "slide",
    screen: lazyNamed(() => import("../features/profile/screens/update-user-name-screen.tsx"), "UpdateUserNameScreen"),
  },
  {
    name: "DeleteAccount",
    path: PATHS.DeleteAccount,
    transition: "slide",
    screen: lazyNamed(() => import("../features/account/screens/delete-account-screen.tsx"), "DeleteAccountScreen"),
  },
  pending("AfterSaleList", {
    permission: PERMISSIONS.afterSale,
    screen: lazyNamed(() => import("../features/after-sale/screens/after-sale-list-screen.tsx"), "AfterSaleListScreen"),
  }),
  pending("AfterSaleCreate", {
    permission: PERMISSIONS.afterSale,
    screen: lazyNamed(
      () => import("../features/after-sale/screens/after-sale-create-screen.tsx"),
      "AfterSaleCreateScreen",
    ),
  }),
  {
    name: "App",
    texts: ["start"],
    path: PATHS.App,
    open: true,
    transition: "none",
    screen: lazyNamed(() => import("./startup.tsx"), "AppStartup"),
  },
  {
    name: "Splash",
    texts: ["start"],
    path: PATHS.Splash,
    open: true,
    transition: "none",
    screen: lazyNamed(() => import("./startup.tsx"), "SplashScreen"),
  },
  {
    name: "Reload",
    texts: ["start"],
    path: PATHS.Reload,
    open: true,
    transition: "none",
    screen: lazyNamed(() => import("./startup.tsx"), "ReloadScreen"),
  },
];

/** Every route, children included, flattened. */
export function allRoutes(routes: AppRoute[] = ROUTES): AppRoute[] {
  return routes.flatMap((r) => [r, ...allRoutes(r.children ?? [])]);
}
