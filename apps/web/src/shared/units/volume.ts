import { DEFAULT_UNIT_PREFERENCES, type TUnitPreferences, type VolumeUnit } from "@aquapilot/contract/wire";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { numberFormat } from "../format/intl.ts";
import { getUnitPreferencesQueryOptions } from "./api/get-unit-preferences.ts";
import { fromLitres } from "./conversions.ts";

/** The symbol keys of each volume unit and its per-minute flow (locales `units.symbols.*`, glossary per language). */
const SYMBOLS: Record<VolumeUnit, { volume: "L" | "gal"; flow: "Lmin" | "galmin" }> = {
  L: { volume: "L", flow: "Lmin" },
  gal: { volume: "gal", flow: "galmin" },
};

/**
 * A volume in litres as text in `unit` and the language's number format, with the localised symbol after a space:
 * whole units from 100 up, one decimal below (e.g. en "3,038 L", ru "3 038 л", "802.6 gal"). `symbol` translates a
 * `units.symbols.*` key. Pure.
 */
export function volumeText(
  litres: number,
  unit: VolumeUnit,
  lang: string,
  symbol: (key: string) => string,
  kind: "volume" | "flow" = "volume",
): string {
  const value = fromLitres(litres, unit);
  const digits = kind === "flow" ? 1 : Math.abs(value) >= 100 ? 0 : 1;
  const number = numberFormat(lang === "zh-Hans" ? "zh-CN" : lang, { maximumFractionDigits: digits }).format(value);
  return `${number} ${symbol(SYMBOLS[unit][kind])}`;
}

/** The volume unit of the owner's preferences (a string: equal answers compare equal). */
const selectVolumeUnit = (preferences: TUnitPreferences): VolumeUnit => preferences.volumeUnit;

/**
 * The owner's volume unit: the default (L) until their preferences arrive, then theirs. Draws its component again
 * only when the unit itself changes — the answer that confirms the default redraws nothing (the units call
 * goes after the first paint, and Home's screen and every card show volumes).
 */
export function useVolumeUnit(): VolumeUnit {
  const { data } = useQuery({
    ...getUnitPreferencesQueryOptions(),
    placeholderData: DEFAULT_UNIT_PREFERENCES,
    select: selectVolumeUnit,
    notifyOnChangeProps: ["data"],
  });
  return data ?? DEFAULT_UNIT_PREFERENCES.volumeUnit;
}

/**
 * Volumes and flows in the owner's chosen unit (litres or US gallons, kept per user): `volume(L)`
 * and `flow(L/min)` as text in the interface language, and the unit's symbol for axis labels. The same functions
 * while the unit, the language and the texts stay (memoised children keep their render).
 */
export function useVolume(): {
  unit: VolumeUnit;
  volume: (litres: number) => string;
  flow: (litresPerMinute: number) => string;
  symbol: string;
} {
  const { t, i18n } = useTranslation();
  const volumeUnit = useVolumeUnit();
  const lang = i18n.language;
  return useMemo(() => {
    const symbol = (key: string) => t(`units.symbols.${key}` as "units.symbols.L");
    return {
      unit: volumeUnit,
      volume: (litres: number) => volumeText(litres, volumeUnit, lang, symbol),
      flow: (lpm: number) => volumeText(lpm, volumeUnit, lang, symbol, "flow"),
      symbol: symbol(SYMBOLS[volumeUnit].volume),
    };
  }, [t, volumeUnit, lang]);
}
