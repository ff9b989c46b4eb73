import { LANGUAGES, type Language } from "@aquapilot/contract/wire";
import { DownOutline, GlobalOutline } from "antd-mobile-icons";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { changeLanguage, currentLanguage } from "../i18n/index.ts";
import { openWithBack } from "./back-stack.ts";

/** The action sheet comes with the first tap (the Login screen paints without antd-mobile's popups). */
const loadDialogs = () => import("./dialogs.tsx");

/**
 * The language switch of the Login, Register and NoFamily screens (spec §1: five languages, stored under `lang`).
 * `choose` applies the choice (default: the interface only; a signed-in screen also tells the server).
 */
export function LanguageSwitch({
  tone = "light",
  choose = changeLanguage,
}: {
  tone?: "light" | "dark";
  choose?: (lang: Language) => Promise<void>;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const opening = useRef(false);
  const open = () => {
    if (opening.current) return; // a double tap opens one sheet
    opening.current = true;
    void openWithBack(
      loadDialogs,
      ({ showActionSheet }, closed) =>
        showActionSheet({
          extra: t("language.title"),
          cancelText: t("common.cancel"),
          closeOnAction: true,
          actions: LANGUAGES.map((l: Language) => ({
            key: l,
            text: t(`language.${l}`),
            bold: l === lang,
            onClick: () => void choose(l),
          })),
          // Its own close (an action, cancel, the mask); a back or leaving the page is seen by openWithBack.
          onClose: closed,
        }),
      () => {
        opening.current = false;
      },
    );
  };
  return (
    <button
      type="button"
      className={`lang-switch lang-switch--${tone}`}
      onClick={open}
      onPointerDown={() => void loadDialogs().catch(() => {})}
      data-testid="language-switch"
    >
      <GlobalOutline />
      <span>{t(`language.${lang}`)}</span>
      <DownOutline className="lang-switch__caret" />
    </button>
  );
}
