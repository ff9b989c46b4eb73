import type { Page } from "playwright-core";

/**
 * Every route of spec §2 with the query values each needs, read from the demo household's ids: the route table the
 * browser tests walk (deep links, accessibility).
 */

/** The ids a route's query values are made of, read from the system's database. */
export interface RouteIds {
  familyId: string;
  familyUserId: string;
  deviceId: string;
}

/**
 * One route of spec §2: `params` are the query values it needs (none when absent), `shows` the route the app then
 * shows (itself unless it redirects), `parent` where it goes without them, `open` whether it needs no token.
 */
export interface RouteCase {
  name: string;
  path: string;
  params?: (ids: RouteIds) => Record<string, string>;
  shows?: string;
  parent?: string;
  open?: boolean;
}

const device = (ids: RouteIds) => ({ deviceId: ids.deviceId });
const family = (ids: RouteIds) => ({ familyId: ids.familyId });

/** Every route of spec §2 (Login apart: entering it signs out, so it is visited on its own). */
export const ROUTES: RouteCase[] = [
  { name: "Index", path: "/index", shows: "Home" },
  { name: "Home", path: "/index/home" },
  { name: "My", path: "/index/My" },
  { name: "NoFamily", path: "/NoFamily", shows: "Home" },
  { name: "DeviceSort", path: "/DeviceSort" },
  { name: "Test", path: "/Test", open: true },
  { name: "Test2", path: "/Test2", open: true },
  { name: "Test3", path: "/Test3", open: true },
  { name: "Register", path: "/Register", open: true },
  { name: "CountrySelect", path: "/CountrySelect", open: true },
  { name: "FindPassword", path: "/FindPassword", open: true },
  { name: "MessageDetails", path: "/MessageDetails" },
  { name: "FamilyList", path: "/FamilyList" },
  { name: "FamilyCreate", path: "/FamilyCreate" },
  { name: "AddressSelect", path: "/AddressSelect" },
  { name: "FamilyDetails", path: "/FamilyDetails", params: family, parent: "FamilyList" },
  { name: "FamilyUpdate", path: "/FamilyUpdate", params: family, parent: "FamilyList" },
  { name: "FamilyQrcode", path: "/FamilyQrcode", params: family, parent: "FamilyList" },
  { name: "FamilyUserList", path: "/FamilyUserList", params: family, parent: "FamilyList" },
  {
    name: "FamilyUserDetails",
    path: "/FamilyUserDetails",
    params: (ids) => ({ familyId: ids.familyId, familyUserId: ids.familyUserId }),
    parent: "FamilyList",
  },
  { name: "FamilyShareList", path: "/FamilyShareList" },
  { name: "Device", path: "/Device", params: (ids) => ({ ...device(ids), familyId: ids.familyId }), parent: "Home" },
  { name: "DeviceAttribute", path: "/DeviceAttribute", params: device, parent: "Home" },
  { name: "DeviceNameUpdate", path: "/DeviceNameUpdate", params: device, parent: "Home" },
  { name: "DeviceInfo", path: "/DeviceInfo", params: device, parent: "Home" },
  { name: "DeviceSetting", path: "/DeviceSetting", params: device, parent: "Home" },
  { name: "DeviceNetwork", path: "/DeviceNetwork" },
  { name: "DeviceNetworkNameUpdate", path: "/DeviceNetworkNameUpdate", params: device, parent: "Home" },
  { name: "DeviceImage", path: "/DeviceImage", params: device, parent: "Home" },
  { name: "Fault", path: "/Fault" },
  { name: "Article", path: "/Article", open: true },
  { name: "PersonalInfo", path: "/PersonalInfo" },
  { name: "About", path: "/About" },
  { name: "Setting", path: "/Setting" },
  { name: "UpdatePassword", path: "/UpdatePassword" },
  { name: "UpdatePhoneEmail", path: "/UpdatePhoneEmail" },
  { name: "UpdateUserName", path: "/UpdateUserName" },
  { name: "DeleteAccount", path: "/DeleteAccount" },
  { name: "AfterSaleList", path: "/AfterSaleList" },
  { name: "AfterSaleCreate", path: "/AfterSaleCreate" },
  { name: "App", path: "/App", open: true, shows: "Home" },
  { name: "Splash", path: "/Splash", open: true, shows: "Home" },
  { name: "Reload", path: "/Reload", open: true, shows: "Home" },
];

/** The route's hash with its query values (`params` as JSON in one query value, spec §2). */
export function hashOf(route: RouteCase, ids: RouteIds, withParams = true): string {
  const params = withParams ? route.params?.(ids) : undefined;
  return params ? `#${route.path}?${new URLSearchParams({ params: JSON.stringify(params) })}` : `#${route.path}`;
}

/**
 * Goes to `route` within the app already open on `page` (a hash change, as a link inside the app does) and waits until
 * its screen is shown: drawn, not an inert copy beneath a prerendered one, past the route guard's wait. At most 15 s.
 */
export async function goToRoute(page: Page, route: RouteCase, ids: RouteIds): Promise<void> {
  await page.evaluate(
    (hash) => {
      location.hash = hash;
    },
    hashOf(route, ids),
  );
  await page.waitForFunction(
    (name) =>
      [...document.querySelectorAll("[data-route]")].some(
        (el) => el.getAttribute("data-route") === name && !el.closest("[inert]") && !el.querySelector(".guard-wait"),
      ),
    route.name,
    { timeout: 15_000 },
  );
}
