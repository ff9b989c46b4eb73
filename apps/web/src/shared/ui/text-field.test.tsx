import { LANGUAGES } from "@aquapilot/contract";
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen } from "../testing/render.tsx";
import { TextField } from "./text-field.tsx";

/** The password toggle's name in each language, written from the locale files' intent, not read from them. */
const SHOW_PASSWORD: Record<(typeof LANGUAGES)[number], string> = {
  "zh-Hans": "显示密码",
  en: "Show password",
  es: "Mostrar contraseña",
  ru: "Показать пароль",
  fr: "Afficher le mot de passe",
};

describe("TextField's password toggle", () => {
  it.each(LANGUAGES)("is a button named in %s, pressed while the password shows", async (language) => {
    await renderScreen(<TextField value="secret" onChange={() => {}} revealable testId="pw" />, { language });
    const toggle = screen.getByRole("button", { name: SHOW_PASSWORD[language] });
    const input = screen.getByTestId("pw");
    expect(input.getAttribute("type")).toBe("password");
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(toggle);
    expect(input.getAttribute("type")).toBe("text");
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    expect(toggle.getAttribute("aria-label")).toBe(SHOW_PASSWORD[language]);
  });
});
