import { LANGUAGES } from "@aquapilot/contract";
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen } from "../../../shared/testing/render.tsx";
import { AvatarPicker } from "./avatar-picker.tsx";
import { PRESET_AVATARS } from "./family-avatar.tsx";

/** "Picture 2" in each language, written from the locale files' intent, not read from them. */
const SECOND: Record<(typeof LANGUAGES)[number], string> = {
  "zh-Hans": "图片 2",
  en: "Picture 2",
  es: "Imagen 2",
  ru: "Картинка 2",
  fr: "Image 2",
};

describe("the household picture sheet", () => {
  it.each(LANGUAGES)("names each picture in %s and marks the current one pressed", async (language) => {
    const chosen: string[] = [];
    await renderScreen(
      <AvatarPicker visible current={PRESET_AVATARS[1]} onSelect={(a) => chosen.push(a)} onClose={() => undefined} />,
      { language },
    );
    const second = screen.getByRole("button", { name: SECOND[language] });
    expect(second.getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("family-avatar-option-1").getAttribute("aria-pressed")).toBe("false");
    expect(screen.getAllByRole("button", { pressed: false }).length).toBeGreaterThanOrEqual(PRESET_AVATARS.length - 1);
    fireEvent.click(screen.getByTestId("family-avatar-option-3"));
    expect(chosen).toEqual([PRESET_AVATARS[2]]);
  });
});
