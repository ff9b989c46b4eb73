/**
 * Every route path of spec §2, by route name (hash mode). Screens refer to routes by these constants and never
 * write a URL by hand; the app's route table (src/app/routes.ts) maps each to its screen.
 */
export const PATHS = {
  Index: "/index",
  Home: "/index/home",
  My: "/index/My",
  NoFamily: "/NoFamily",
  DeviceSort: "/DeviceSort",
  Test: "/Test",
  Test2: "/Test2",
  Test3: "/Test3",
  Login: "/login",
  Register: "/Register",
  CountrySelect: "/CountrySelect",
  FindPassword: "/FindPassword",
  MessageDetails: "/MessageDetails",
  FamilyList: "/FamilyList",
  FamilyCreate: "/FamilyCreate",
  AddressSelect: "/AddressSelect",
  FamilyDetails: "/FamilyDetails",
  FamilyUpdate: "/FamilyUpdate",
  FamilyQrcode: "/FamilyQrcode",
  FamilyUserList: "/FamilyUserList",
  FamilyUserDetails: "/FamilyUserDetails",
  FamilyShareList: "/FamilyShareList",
  Device: "/Device",
  DeviceAttribute: "/DeviceAttribute",
  DeviceNameUpdate: "/DeviceNameUpdate",
  DeviceInfo: "/DeviceInfo",
  DeviceSetting: "/DeviceSetting",
  DeviceNetwork: "/DeviceNetwork",
  DeviceNetworkNameUpdate: "/DeviceNetworkNameUpdate",
  DeviceImage: "/DeviceImage",
  Fault: "/Fault",
  Article: "/Article",
  PersonalInfo: "/PersonalInfo",
  About: "/About",
  Setting: "/Setting",
  UpdatePassword: "/UpdatePassword",
  UpdatePhoneEmail: "/UpdatePhoneEmail",
  UpdateUserName: "/UpdateUserName",
  DeleteAccount: "/DeleteAccount",
  AfterSaleList: "/AfterSaleList",
  AfterSaleCreate: "/AfterSaleCreate",
  App: "/App",
  Splash: "/Splash",
  Reload: "/Reload",
} as const;

/** A route name of spec §2 (also its i18n key under `routes.`). */
export type RouteName = keyof typeof PATHS;
/** A route path of spec §2. */
export type RoutePath = (typeof PATHS)[RouteName];

/** Route names by path (for titles of not-built pages and the guard). */
export const ROUTE_NAME_BY_PATH: Record<string, RouteName> = Object.fromEntries(
  Object.entries(PATHS).map(([name, path]) => [path.toLowerCase(), name as RouteName]),
);
