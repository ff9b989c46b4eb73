import { describe, expect, it } from "vitest";
import { palladiusWord, pinyinWord, romanizedRegionNames, splitRegionName } from "./romanize.ts";

/** The pinyin of the stems used below, as pinyin-pro gives them (the build's source). */
const PINYIN: Record<string, string[]> = {
  黄浦: ["huang", "pu"],
  六安: ["lu", "an"],
  乌鲁木齐: ["wu", "lu", "mu", "qi"],
  莎车: ["sha", "che"],
  阿拉善: ["a", "la", "shan"],
  延边朝鲜族: ["yan", "bian", "chao", "xian", "zu"],
  西安: ["xi", "an"],
  紫阳: ["zi", "yang"],
  绿春: ["lv", "chun"],
  句容: ["ju", "rong"],
};
const syllables = (stem: string) => PINYIN[stem] ?? [];

describe("names of Chinese regions in the other languages", () => {
  it("splits the kind of region off the name, longest suffix first", () => {
    expect(splitRegionName("黄浦区")).toEqual({ stem: "黄浦", suffix: "区" });
    expect(splitRegionName("延边朝鲜族自治州")).toEqual({ stem: "延边朝鲜族", suffix: "自治州" });
    expect(splitRegionName("滨海新区")).toEqual({ stem: "滨海", suffix: "新区" });
    expect(splitRegionName("区")).toEqual({ stem: "区", suffix: "" });
  });

  it("writes pinyin as one word with the syllable apostrophe, and Russian in the Palladius system", () => {
    expect(pinyinWord(["lu", "an"])).toBe("Lu'an");
    expect(pinyinWord(["xi", "an"])).toBe("Xi'an");
    expect(pinyinWord(["lv", "chun"])).toBe("Lüchun");
    expect(palladiusWord(["huang", "pu"])).toBe("Хуанпу");
    expect(palladiusWord(["wu", "lu", "mu", "qi"])).toBe("Улумуци");
    expect(palladiusWord(["zi", "yang"])).toBe("Цзыян");
    expect(palladiusWord(["ju", "rong"])).toBe("Цзюйжун");
    expect(palladiusWord(["xi", "an"])).toBe("Сиань");
    expect(palladiusWord(["lu", "an"])).toBe("Луань");
    expect(palladiusWord(["yan", "an"])).toBe("Яньань");
    expect(palladiusWord(["ping", "an"])).toBe("Пинъань");
    expect(palladiusWord(["lv", "chun"])).toBe("Люйчунь");
  });

  it("names a region with its kind in each language, and leaves placeholders alone", () => {
    expect(romanizedRegionNames("黄浦区", syllables)).toEqual({
      en: "Huangpu District",
      es: "Distrito de Huangpu",
      fr: "District de Huangpu",
      ru: "район Хуанпу",
    });
    expect(romanizedRegionNames("六安市", syllables)).toEqual({ en: "Lu'an", es: "Lu'an", fr: "Lu'an", ru: "Луань" });
    expect(romanizedRegionNames("莎车县", syllables)?.fr).toBe("Xian de Shache");
    expect(romanizedRegionNames("阿拉善盟", syllables)?.en).toBe("Alashan League");
    expect(romanizedRegionNames("河南省-省直辖县级行政区划", syllables)).toBeNull();
    expect(romanizedRegionNames("未知区", syllables)).toBeNull();
  });
});
