import { LANGUAGES, type Language } from "@aquapilot/contract/wire";
import { DownOutline, GlobalOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { changeLanguage, currentLanguage } from "../../../shared/i18n/index.js";
import { pushBackHandler, showActionSheet } from "../../../shared/ui/index.js";

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
  const open = () => {
    let removeBack = () => {};
    const handler = showActionSheet({
      extra: t("language.title"),
      cancelText: t("common.cancel"),
      closeOnAction: true,
      actions: LANGUAGES.map((l: Language) => ({
        key: l,
        text: t(`language.${l}`),
        bold: l === lang,
        onClick: () => void choose(l),
      })),
      onClose: () => removeBack(),
    });
    removeBack = pushBackHandler(() => handler.close());
  };
  return (
    <button type="button" className={`lang-switch lang-switch--${tone}`} onClick={open} data-testid="language-switch">
      <GlobalOutline />
      <span>{t(`language.${lang}`)}</span>
      <DownOutline className="lang-switch__caret" />
    </button>
  );
}
