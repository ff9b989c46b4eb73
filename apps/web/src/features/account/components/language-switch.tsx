import { LANGUAGES, type Language } from "@aquapilot/contract";
import { DownOutline, GlobalOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { changeLanguage, currentLanguage } from "../../../shared/i18n/index.js";
import { pushBackHandler, showActionSheet } from "../../../shared/ui/index.js";

/** The language switch of the Login and Register screens (spec §1: five languages, stored under `lang`). */
export function LanguageSwitch({ tone = "light" }: { tone?: "light" | "dark" }) {
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
        onClick: () => void changeLanguage(l),
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
