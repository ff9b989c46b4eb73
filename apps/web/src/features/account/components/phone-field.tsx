import { DownOutline } from "antd-mobile-icons";
import type { CountryCode } from "libphonenumber-js/mobile";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "../../../shared/i18n/index.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { TextField } from "../../../shared/ui/text-field.tsx";
import { findCountry } from "../countries.ts";

/**
 * A phone number field with its country button: the button shows the calling code and opens
 * /CountrySelect for `requestPageId`; `beforeOpen` lets the screen keep its form for the return trip.
 */
export function PhoneField(props: {
  label?: ReactNode;
  country: CountryCode;
  requestPageId: string;
  beforeOpen: () => void;
  value: string;
  onChange: (value: string) => void;
  suffix?: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  const country = findCountry(props.country, currentLanguage());
  const open = () => {
    props.beforeOpen();
    navigateTo(PATHS.CountrySelect, { selected: props.country }, { requestPageId: props.requestPageId });
  };
  return (
    <TextField
      label={props.label}
      icon={
        <button
          type="button"
          className="country-button"
          onClick={open}
          aria-label={t("country.title")}
          title={country?.name}
          data-testid={`${props.testId}-country`}
        >
          <span className="country-button__iso">{props.country}</span>
          <span>{country?.callingCode ?? ""}</span>
          <DownOutline className="country-button__caret" />
        </button>
      }
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      value={props.value}
      onChange={(v) => props.onChange(v.replace(/[^\d\s-]/g, ""))}
      placeholder={t("register.phonePlaceholder")}
      testId={props.testId}
      suffix={props.suffix}
    />
  );
}
