import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ARTICLE_CONTENT_DIR } from "./seed.ts";

/**
 * Tú words (docs/glossary.md "Checked by tests"): pronouns, possessives and verb forms that are never usted.
 * Imperatives such as "pulsa" are also the usted indicative ("la posición que elige"), so they count only when they
 * open a sentence or a list item.
 */
const ES_TU =
  /(?<![\p{L}])(tu|tus|tú|te|ti|contigo|puedes|tienes|quieres|debes|estás|eres|has|mantén|únete|cópialo)(?![\p{L}])/iu;
const ES_TU_IMPERATIVE =
  /(^|[.;:!?¿¡(]\s*|^\s*(?:[-*]|\d+\.)\s+(?:\*\*[^*]+\*\*:?\s*)?)(pulsa|toca|elige|introduce|selecciona|escanea|pega|desliza|suelta|añade|comprueba|vuelve|espera|abre|cierra|crea|usa|actualiza|comparte|coloca|inicia|confirma|revisa|busca|escribe|permite|mira|guarda|deja|acerca el)(?![\p{L}])/iu;

/** The help articles of a language as [file, text] (content/<lang>/<id>.md). */
function articles(lang: string): [string, string][] {
  const dir = path.join(ARTICLE_CONTENT_DIR, lang);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]);
}

/** Lines of the articles of `lang` that match `pattern`, as "file: line" (empty when none). */
function offending(lang: string, pattern: RegExp): string[] {
  return articles(lang).flatMap(([file, text]) =>
    text
      .split("\n")
      .filter((line) => pattern.test(line))
      .map((line) => `${file}: ${line}`),
  );
}

describe("help articles follow docs/glossary.md", () => {
  it("es addresses the reader as usted: no tú words, no tú imperatives opening a sentence", () => {
    expect(offending("es", ES_TU)).toEqual([]);
    expect(offending("es", ES_TU_IMPERATIVE)).toEqual([]);
  });

  it("es says dispositivo and app, never equipo or aplicación; la Wi-Fi", () => {
    expect(offending("es", /(?<![\p{L}])(equipos?|aplicación)(?![\p{L}])|\bel Wi-Fi\b/iu)).toEqual([]);
  });

  it("ru never says «Онлайн» or «дн.», and brine is «рассол»", () => {
    expect(offending("ru", /онлайн|\sдн\.|(?<![\p{L}])раствор(а|ом|у|е)?(?![\p{L}])/iu)).toEqual([]);
  });

  it("zh-Hans says 您 and 告警, never 你 or 报警", () => {
    expect(offending("zh-Hans", /你|报警/u)).toEqual([]);
  });

  it("fr says réglages avancés and bac à sel", () => {
    expect(offending("fr", /paramètres avancés|bac à saumure/iu)).toEqual([]);
  });

  it("writes the Wi-Fi band as the glossary says (es/fr 2,4 GHz, ru 2,4 ГГц; en and zh-Hans 2.4GHz and 5GHz)", () => {
    for (const lang of ["es", "fr", "ru"]) expect(offending(lang, /2\.4 ?GHz/u), lang).toEqual([]);
    for (const lang of ["en", "zh-Hans"]) expect(offending(lang, /\b5 GHz/u), lang).toEqual([]);
  });

  it("quotes the network setup's progress steps with their screen capital (sentence case)", () => {
    expect(offending("en", /\*(starting network setup|adding device|initialization failed)\*/u)).toEqual([]);
    expect(offending("es", /\*(iniciando la configuración de red|error de inicialización)\*/u)).toEqual([]);
  });
});
