import { IndexBar, List, SearchBar } from "antd-mobile";
import { CheckOutline, GlobalOutline } from "antd-mobile-icons";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "../../../shared/i18n/index.ts";
import { goBack, useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell, StateBlock } from "../../../shared/ui/index.ts";
import { ListItem } from "../../../shared/ui/list-item.tsx";
import { type Country, listCountries, searchCountries } from "../countries.ts";
import { setCountryChoice } from "../country-choice.ts";
import "../account.css";
import { PlaceholderLine } from "../../../shared/ui/placeholder-line.tsx";

/** Navigation params of /CountrySelect: the currently chosen ISO code (requestPageId names the caller). */
export interface CountrySelectParams {
  selected?: string;
}

/**
 * CountrySelect (spec §2 /CountrySelect, open without a token): every country with its calling code and its name in
 * the interface language, a search box (name, English name, ISO code or calling code) and an alphabetic index
 * (pinyin initials in zh-Hans). Tapping a country hands it to the calling page (its requestPageId) and goes back.
 */
export function CountrySelectScreen() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { selected, requestPageId } = useRouteParams<CountrySelectParams>();
  const [keyword, setKeyword] = useState("");
  const all = useMemo(() => listCountries(lang), [lang]);
  const shown = useMemo(() => searchCountries(all, keyword), [all, keyword]);
  const groups = useMemo(() => {
    const map = new Map<string, Country[]>();
    for (const c of shown) map.set(c.initial, [...(map.get(c.initial) ?? []), c]);
    return [...map.entries()];
  }, [shown]);

  const choose = (c: Country) => {
    if (requestPageId) setCountryChoice(requestPageId, c.iso2);
    goBack();
  };

  const row = (c: Country) => (
    <ListItem
      key={c.iso2}
      onClick={() => choose(c)}
      extra={<span className="country__code">{c.callingCode}</span>}
      arrowIcon={false}
      data-testid={`country-${c.iso2}`}
      className={c.iso2 === selected ? "country--selected" : undefined}
    >
      <span className="country__name">
        {c.name}
        {c.iso2 === selected ? <CheckOutline className="country__check" /> : null}
      </span>
    </ListItem>
  );

  return (
    <PageShell title={t("country.title")} tone="white" testId="country-select-screen">
      <div className="country__search has-placeholder-line">
        <SearchBar
          placeholder={t("country.searchPlaceholder")}
          value={keyword}
          onChange={setKeyword}
          data-testid="country-search"
        />
        <PlaceholderLine text={t("country.searchPlaceholder")} />
      </div>
      {shown.length === 0 ? (
        <StateBlock icon={<GlobalOutline />} title={t("country.empty")} testId="country-empty" />
      ) : keyword.trim() ? (
        <List className="country__list">{shown.map(row)}</List>
      ) : (
        <div className="country__index">
          <IndexBar>
            {groups.map(([initial, items]) => (
              <IndexBar.Panel key={initial} index={initial} title={initial}>
                <List className="country__list">{items.map(row)}</List>
              </IndexBar.Panel>
            ))}
          </IndexBar>
        </div>
      )}
    </PageShell>
  );
}
