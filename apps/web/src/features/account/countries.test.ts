import { describe, expect, it } from "vitest";
import {
  checkPhone,
  countryOfCallingCode,
  defaultCountry,
  findCountry,
  indexInitial,
  listCountries,
  searchCountries,
} from "./countries.ts";

describe("countries (CountrySelect)", () => {
  it("lists every country with calling code and a name in each of the five languages", () => {
    for (const lang of ["zh-Hans", "en", "es", "ru", "fr"] as const) {
      const list = listCountries(lang);
      expect(list.length).toBeGreaterThan(200);
      expect(new Set(list.map((c) => c.iso2)).size).toBe(list.length);
      expect(list.every((c) => /^\+\d{1,4}$/.test(c.callingCode) && c.name.length > 0)).toBe(true);
    }
    expect(findCountry("CN", "zh-Hans")).toMatchObject({ callingCode: "+86", name: "中国", initial: "Z" });
    expect(findCountry("DE", "en")).toMatchObject({ callingCode: "+49", name: "Germany", initial: "G" });
    expect(findCountry("DE", "fr")?.name).toBe("Allemagne");
    expect(findCountry("DE", "es")?.name).toBe("Alemania");
    expect(findCountry("DE", "ru")).toMatchObject({ name: "Германия", initial: "Г" });
    expect(findCountry("GB", "en")?.callingCode).toBe("+44");
  });

  it("groups by index letter in order: pinyin initials for zh-Hans, first letters otherwise", () => {
    expect(indexInitial("阿富汗", "zh-Hans")).toBe("A");
    expect(indexInitial("俄罗斯", "zh-Hans")).toBe("E");
    expect(indexInitial("法国", "zh-Hans")).toBe("F");
    expect(indexInitial("Émirats arabes unis", "fr")).toBe("E");
    expect(indexInitial("Österreich", "en")).toBe("O");
    const zh = listCountries("zh-Hans").map((c) => c.initial);
    const en = listCountries("en").map((c) => c.initial);
    for (const initials of [zh, en]) {
      const letters = initials.filter((l) => l !== "#");
      expect([...letters].sort()).toEqual(letters);
    }
    expect(listCountries("en")[0].initial).toBe("A");
  });

  it("searches by name in the language or English, ISO code and calling code", () => {
    const zh = listCountries("zh-Hans");
    expect(searchCountries(zh, "中国").map((c) => c.iso2)).toContain("CN");
    expect(searchCountries(zh, "germany").map((c) => c.iso2)).toEqual(["DE"]);
    expect(searchCountries(zh, "+86").map((c) => c.iso2)).toEqual(["CN"]);
    expect(searchCountries(listCountries("en"), "fr")[0].iso2).toBe("FR");
    expect(searchCountries(listCountries("en"), "+1")[0].callingCode).toBe("+1");
    expect(searchCountries(listCountries("en"), "+35").map((c) => c.callingCode)).toContain("+358");
    expect(searchCountries(zh, "fr").map((c) => c.iso2)).toContain("FR");
    const fr = listCountries("fr");
    expect(searchCountries(fr, "etats-unis").map((c) => c.iso2)).toEqual(["US"]);
    expect(searchCountries(fr, "états").map((c) => c.iso2)).toContain("US");
    expect(searchCountries(fr, "etats").map((c) => c.iso2)).toContain("US");
    expect(searchCountries(fr, "")).toHaveLength(fr.length);
    expect(searchCountries(fr, "zzzz")).toEqual([]);
  });

  it("validates mobile numbers for the chosen country (libphonenumber-js isValidPhoneNumber)", () => {
    expect(checkPhone("13800138000", "CN")).toEqual({ nationalNumber: "13800138000", countryCode: "+86" });
    expect(checkPhone("138 0013 8000", "CN")?.nationalNumber).toBe("13800138000");
    expect(checkPhone("1380013800", "CN")).toBeNull(); // one digit short
    expect(checkPhone("02079460958", "GB")).toBeNull(); // a London landline is not a mobile
    expect(checkPhone("07911 123456", "GB")).toEqual({ nationalNumber: "7911123456", countryCode: "+44" });
    expect(checkPhone("06 12 34 56 78", "FR")).toEqual({ nationalNumber: "612345678", countryCode: "+33" });
    expect(checkPhone("612345678", "ES")).toEqual({ nationalNumber: "612345678", countryCode: "+34" });
    expect(checkPhone("9123456789", "RU")?.countryCode).toBe("+7");
    // a valid Chinese mobile is not valid for France, and "+44…" typed with China chosen is refused
    expect(checkPhone("13800138000", "FR")).toBeNull();
    expect(checkPhone("+447911123456", "CN")).toBeNull();
    expect(checkPhone("", "CN")).toBeNull();
    expect(checkPhone("abc", "CN")).toBeNull();
  });

  it("finds the country of a stored calling code, exact with the number", () => {
    expect(countryOfCallingCode("+86")).toBe("CN");
    expect(countryOfCallingCode("1")).toBe("US");
    expect(countryOfCallingCode("+1", "4165550123")).toBe("CA");
    expect(countryOfCallingCode("+7")).toBe("RU");
    expect(countryOfCallingCode("")).toBeNull();
    expect(countryOfCallingCode("+999")).toBeNull();
    expect(defaultCountry("zh-Hans")).toBe("CN");
    expect(defaultCountry("fr")).toBe("FR");
  });
});
