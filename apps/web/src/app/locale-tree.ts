/**
 * The one key tree every locale follows (zh-Hans is the source; spec §1). It is assembled from the app-wide file
 * `src/locales/<lang>.json` and the files of areas that own their texts (`<area>/locales/<lang>.json`); each area
 * file holds its own top-level keys, so areas never edit each other's files. Top-level keys must not collide
 * (shared/i18n/locales.test.ts). Only the types are imported here, in the app layer that composes the features
 * (shared/ never imports a feature); the texts themselves load per language and group (shared/i18n
 * `loadTexts`).
 */
export type LocaleTree = typeof import("../locales/zh-Hans.json") &
  typeof import("../features/account/locales/zh-Hans.json") &
  typeof import("../features/family/locales/zh-Hans.json") &
  typeof import("../shared/ui/locales/zh-Hans.json") &
  typeof import("../features/device/locales/zh-Hans.json") &
  typeof import("../features/device-settings/locales/zh-Hans.json") &
  typeof import("../features/message/locales/zh-Hans.json") &
  typeof import("../features/after-sale/locales/zh-Hans.json") &
  typeof import("../features/article/locales/zh-Hans.json") &
  typeof import("../features/home/locales/zh-Hans.json") &
  typeof import("../features/network-setup/locales/zh-Hans.json") &
  typeof import("../features/fault/locales/zh-Hans.json");

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: LocaleTree };
  }
}
