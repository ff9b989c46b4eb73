import { LANGUAGES } from "@aquapilot/contract";
import { fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
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

/** "Up to 32 characters" in each language, written from the locale files' intent, not read from them. */
const UP_TO_32: Record<(typeof LANGUAGES)[number], string> = {
  "zh-Hans": "最多 32 个字符",
  en: "Up to 32 characters",
  es: "Hasta 32 caracteres",
  ru: "Не более 32 символов",
  fr: "Jusqu'à 32 caractères",
};

/** A name field as the screens use it: the value in state, 32 characters at most. */
function NameField(props: { limitHint?: boolean; hint?: string; onValue?: (value: string) => void }) {
  const [value, setValue] = useState("");
  return (
    <TextField
      label="Name"
      value={value}
      onChange={(v) => {
        setValue(v);
        props.onValue?.(v);
      }}
      maxLength={32}
      limitHint={props.limitHint}
      hint={props.hint}
      testId="name"
    />
  );
}

/** Pastes `text` into `input` as a browser delivers it before maxLength applies (the field's value becomes `text`). */
function paste(input: HTMLElement, text: string) {
  fireEvent.paste(input, { clipboardData: { getData: () => text } });
  fireEvent.change(input, { target: { value: text } });
}

describe("TextField's length limit", () => {
  it.each(LANGUAGES)("says so in %s when a pasted name of 40 characters is cut to 32", async (language) => {
    const values: string[] = [];
    await renderScreen(<NameField onValue={(v) => values.push(v)} />, { language });
    const input = screen.getByTestId("name") as HTMLInputElement;
    const hint = screen.getByTestId("name-limit");
    expect(hint.textContent).toBe("");
    paste(input, "abcdefghij".repeat(4));
    expect(values).toEqual(["abcdefghij".repeat(3) + "ab"]);
    expect(input.value).toHaveLength(32);
    expect(hint.textContent).toBe(UP_TO_32[language]);
    // Announced politely and named as the input's description.
    expect(hint.getAttribute("aria-live")).toBe("polite");
    expect(input.getAttribute("aria-describedby")).toBe(hint.id);
  });

  it("shows nothing below the limit, and the hint again when 32 characters are typed", async () => {
    await renderScreen(<NameField />);
    const input = screen.getByTestId("name");
    fireEvent.change(input, { target: { value: "x".repeat(31) } });
    expect(screen.getByTestId("name-limit").textContent).toBe("");
    expect(input.getAttribute("aria-describedby")).toBeNull();
    fireEvent.change(input, { target: { value: "x".repeat(32) } });
    expect(screen.getByTestId("name-limit").textContent).toBe("Up to 32 characters");
  });

  it("cuts before a character of two code units rather than through it", async () => {
    const values: string[] = [];
    await renderScreen(<NameField onValue={(v) => values.push(v)} />);
    fireEvent.change(screen.getByTestId("name"), { target: { value: `${"a".repeat(31)}😀` } });
    expect(values).toEqual(["a".repeat(31)]);
  });

  it("keeps the limit without a hint for a fixed-length entry (limitHint false)", async () => {
    const values: string[] = [];
    await renderScreen(<NameField limitHint={false} onValue={(v) => values.push(v)} />);
    paste(screen.getByTestId("name"), "y".repeat(40));
    expect(values).toEqual(["y".repeat(32)]);
    expect(screen.queryByTestId("name-limit")).toBeNull();
  });
});

describe("TextField's hint", () => {
  it("stays under the field whatever its value, as the input's description with the limit's note", async () => {
    await renderScreen(<NameField hint="Shown to your household" />);
    const input = screen.getByTestId("name") as HTMLInputElement;
    const hint = screen.getByTestId("name-hint");
    expect(hint.textContent).toBe("Shown to your household");
    expect(input.getAttribute("aria-describedby")).toBe(hint.id);
    paste(input, "z".repeat(40));
    expect(hint.textContent).toBe("Shown to your household");
    expect(input.getAttribute("aria-describedby")).toBe(`${hint.id} ${screen.getByTestId("name-limit").id}`);
  });

  it("is absent without one", async () => {
    await renderScreen(<NameField />);
    expect(screen.queryByTestId("name-hint")).toBeNull();
  });
});
