import { readFileSync } from "node:fs";
import type { Rolldown } from "vite";
import { describe, expect, it } from "vitest";
import {
  BOOT_SOURCE,
  bootScript,
  chunkClosure,
  deferEntry,
  homeChunks,
  injectPrerender,
  prerenderCopy,
} from "./prerender-plugin.ts";

describe("the prerendered Login copy", () => {
  it("drops test ids, route names and element ids, keeps classes and text, and is hidden and inert by its wrapper", () => {
    const copy = prerenderCopy(
      "ru",
      '<div class="route route--none" data-route="Login"><input id="a1" data-testid="login-account" class="x" placeholder="Пароль"/></div>',
    );
    expect(copy).toBe(
      '<div class="prerender" data-screen="login" lang="ru" inert=""><div class="route route--none"><input class="x" placeholder="Пароль"/></div></div>',
    );
    // The Device screen's frame carries its screen, which boot.js and styles.css pick it by.
    expect(prerenderCopy("en", '<div data-testid="device-frame" class="device-frame">Salt</div>', "device")).toBe(
      '<div class="prerender" data-screen="device" lang="en" inert=""><div class="device-frame">Salt</div></div>',
    );
  });

  it("turns the icons' inline style into its class (the CSP drops style attributes in markup) and refuses others", () => {
    expect(
      prerenderCopy("en", '<svg width="1em" style="vertical-align:-0.125em" class="antd-mobile-icon"></svg>'),
    ).toContain('<svg width="1em" class="antd-mobile-icon prerender-icon">');
    expect(prerenderCopy("en", '<svg style="vertical-align:-0.125em"></svg>')).toContain(
      '<svg class="prerender-icon">',
    );
    expect(() => prerenderCopy("en", '<div style="color:red">x</div>')).toThrow(/style attribute/);
    expect(() => prerenderCopy("en", "<script>alert(1)</script>")).toThrow(/script/);
  });

  it("goes into the empty #root of index.html, every copy in order", () => {
    const html = '<html><body><div id="root"></div><script type="module" src="/a.js"></script></body></html>';
    const out = injectPrerender(html, [
      { lang: "zh-Hans", markup: "<p>登录</p>" },
      { lang: "en", markup: "<p>Sign in $&</p>" },
      { lang: "en", markup: "<p>Device</p>", screen: "device" },
    ]);
    expect(out).toBe(
      '<html><body><div id="root"><div class="prerender" data-screen="login" lang="zh-Hans" inert=""><p>登录</p></div><div class="prerender" data-screen="login" lang="en" inert=""><p>Sign in $&</p></div><div class="prerender" data-screen="device" lang="en" inert=""><p>Device</p></div></div><script type="module" src="/a.js"></script></body></html>',
    );
    expect(() => injectPrerender("<div id=root></div>", [])).toThrow(/no empty/);
  });
});

describe("deferEntry", () => {
  it("moves the module entry and its preloads onto the boot script, which goes before the stylesheets", () => {
    const html = [
      "<head>",
      "<title>AquaPilot</title>",
      '<script type="module" crossorigin src="/assets/index-1.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/react-1.js">',
      '<link rel="modulepreload" crossorigin href="/assets/i18n-1.js">',
      '<link rel="stylesheet" crossorigin href="/assets/index-1.css">',
      "</head>",
    ].join("\n");
    const out = deferEntry(
      html,
      "boot();",
      ["/assets/login-1.js", "/assets/react-1.js", "/assets/field-1.js"],
      {
        js: ["/assets/home-1.js", "/assets/i18n-1.js"],
        css: ["/assets/home-1.css"],
        texts: { "zh-Hans": ["/assets/zh-Hans-1.js", "/assets/zh-Hans-2.js"], en: ["/assets/en-1.js"] },
      },
      ["/assets/login-1.css", "/assets/index-1.css"],
    );
    expect(out).not.toMatch(/type="module"|modulepreload/);
    expect(out).toContain(
      '<title>AquaPilot</title>\n    <script data-entry="/assets/index-1.js" data-preload="/assets/react-1.js /assets/i18n-1.js" data-screen="/assets/login-1.js /assets/field-1.js" data-home="/assets/home-1.js" data-home-texts="zh-Hans=/assets/zh-Hans-1.js,/assets/zh-Hans-2.js en=/assets/en-1.js" data-css="/assets/index-1.css /assets/login-1.css" data-home-css="/assets/home-1.css">boot();</script>',
    );
    expect(out.indexOf("boot();</script>")).toBeLessThan(out.indexOf('<link rel="stylesheet"'));
    expect(() => deferEntry("<title>x</title>", "boot();")).toThrow(/no module entry/);
    // Code that would end the inline script early is refused.
    expect(() => deferEntry(html, 'a("</script>")')).toThrow(/cannot go inline/);
    expect(() => deferEntry(html, "a('<!--')")).toThrow(/cannot go inline/);
  });

  it("names the Device screen's chunks and stylesheets not already in the page, and its texts per language", () => {
    const html = [
      "<title>AquaPilot</title>",
      '<script type="module" crossorigin src="/assets/index-1.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/app-1.js">',
      '<link rel="stylesheet" crossorigin href="/assets/app-1.css">',
    ].join("\n");
    const device = {
      js: ["/assets/device-1.js", "/assets/app-1.js"],
      css: ["/assets/device-1.css", "/assets/app-1.css"],
      texts: { en: ["/assets/en-start-1.js", "/assets/en-device-1.js"], fr: ["/assets/fr-device-1.js"] },
    };
    const out = deferEntry(html, "boot();", [], undefined, [], device);
    expect(out).toContain(
      ' data-device="/assets/device-1.js /assets/device-1.css" data-device-texts="en=/assets/en-start-1.js,/assets/en-device-1.js fr=/assets/fr-device-1.js">boot();</script>',
    );
    // The Device screen's first calls for boot.js to send, as an attribute ("&" written as "&amp;").
    const calls = {
      device: ["GET /api/a?x=__deviceId__&y=__familyId__", "POST /api/b"],
      timeZoneHeader: "X-Time-Zone",
      tokenMarginMs: 60_000,
    };
    expect(deferEntry(html, "boot();", [], undefined, [], device, calls)).toContain(
      ' data-device-calls="GET /api/a?x=__deviceId__&amp;y=__familyId__|POST /api/b" data-time-zone-header="X-Time-Zone" data-token-margin="60000">boot();</script>',
    );
    // Without a Device screen in the build the script carries no such attributes.
    expect(deferEntry(html, "boot();")).not.toContain("data-device");
  });
});

describe("bootScript", () => {
  it("is apps/web/src/first-paint/boot.js minified: it still runs, without its comments, and can go inline", () => {
    const code = bootScript();
    const source = readFileSync(BOOT_SOURCE, "utf8");
    expect(code.length).toBeLessThan(source.length / 2);
    expect(code).not.toMatch(/<\/script|<!--|\/\*\*/);
    expect(() => new Function(code)).not.toThrow();
    expect(() => bootScript("let = ;")).toThrow(/boot.js/);
  });
});

describe("chunkClosure", () => {
  const chunk = (
    fileName: string,
    facadeModuleId: string | null,
    imports: string[],
    css: string[],
    modules?: string[],
  ) =>
    ({
      type: "chunk",
      fileName,
      facadeModuleId,
      moduleIds: modules ?? (facadeModuleId ? [facadeModuleId] : []),
      imports,
      viteMetadata: { importedCss: new Set(css) },
    }) as never;

  it("collects the screen's chunk and the chunks it imports statically, with their CSS, each once", () => {
    const bundle = {
      "assets/login.js": chunk(
        "assets/login.js",
        "/app/src/features/account/screens/login-screen.tsx",
        ["assets/button.js", "assets/form.js"],
        ["assets/login.css"],
      ),
      "assets/button.js": chunk("assets/button.js", null, ["assets/form.js"], ["assets/button.css"]),
      "assets/form.js": chunk("assets/form.js", null, ["assets/button.js"], ["assets/form.css", "assets/button.css"]),
      "assets/home.js": chunk(
        "assets/home.js",
        "/app/src/features/home/screens/home-screen.tsx",
        [],
        ["assets/home.css"],
      ),
    } as unknown as Rolldown.OutputBundle;
    expect(chunkClosure(bundle, /\/login-screen\.tsx$/)).toEqual({
      js: ["assets/login.js", "assets/button.js", "assets/form.js"],
      css: ["assets/login.css", "assets/button.css", "assets/form.css"],
    });
    expect(chunkClosure(bundle, /\/nowhere\.tsx$/)).toEqual({ js: [], css: [] });
  });

  it("finds a screen put in a first-screen chunk (no facade of its own) by the modules the chunk holds", () => {
    const bundle = {
      "assets/app.js": chunk("assets/app.js", null, [], ["assets/app.css"], ["/app/src/main.tsx"]),
      "assets/login.js": chunk(
        "assets/login.js",
        null,
        ["assets/app.js"],
        [],
        ["/app/src/features/account/screens/text-field.tsx", "/app/src/features/account/screens/login-screen.tsx"],
      ),
      "assets/button.js": chunk("assets/button.js", "/app/node_modules/antd-mobile/es/button.js", [], []),
    } as unknown as Rolldown.OutputBundle;
    expect(chunkClosure(bundle, /\/login-screen\.tsx$/)).toEqual({
      js: ["assets/login.js", "assets/app.js"],
      css: ["assets/app.css"],
    });
  });
});

describe("homeChunks", () => {
  const chunk = (
    fileName: string,
    facadeModuleId: string | null,
    imports: string[] = [],
    modules?: string[],
    css: string[] = [],
  ) =>
    ({
      type: "chunk",
      fileName,
      facadeModuleId,
      moduleIds: modules ?? (facadeModuleId ? [facadeModuleId] : []),
      imports,
      viteMetadata: { importedCss: new Set(css) },
    }) as never;

  it("names Home's layout, screen and data starter with their imports once, and per language its texts' chunks", () => {
    const bundle = {
      "assets/layout.js": chunk("assets/layout.js", "/app/src/app/index-layout.tsx", ["assets/icons.js"]),
      "assets/icons.js": chunk("assets/icons.js", null, [], undefined, ["assets/tag.css"]),
      "assets/home.js": chunk(
        "assets/home.js",
        "/app/src/features/home/screens/home-screen.tsx",
        ["assets/icons.js"],
        undefined,
        ["assets/home.css", "assets/tag.css"],
      ),
      "assets/prefetch.js": chunk("assets/prefetch.js", "/app/src/features/home/prefetch.ts"),
      "assets/my.js": chunk("assets/my.js", "/app/src/features/profile/screens/my-screen.tsx"),
      "assets/en-app.js": chunk("assets/en-app.js", "/app/src/locales/en.json"),
      "assets/en-home.js": chunk("assets/en-home.js", "/app/src/features/home/locales/en.json"),
      "assets/en-device.js": chunk("assets/en-device.js", "/app/src/features/device/locales/en.json"),
      "assets/fr-app.js": chunk("assets/fr-app.js", "/app/src/locales/fr.json"),
    } as unknown as Rolldown.OutputBundle;
    expect(homeChunks(bundle, ["en", "fr", "ru"])).toEqual({
      js: ["assets/layout.js", "assets/icons.js", "assets/home.js", "assets/prefetch.js"],
      // Their stylesheets, each once.
      css: ["assets/tag.css", "assets/home.css"],
      // The "start" and "home" groups only: the device screen's texts are not Home's.
      texts: { en: ["assets/en-app.js", "assets/en-home.js"], fr: ["assets/fr-app.js"], ru: [] },
    });
  });

  it("names a chunk once when it holds several of Home's modules or texts (first-screen chunks)", () => {
    const bundle = {
      "assets/home.js": chunk(
        "assets/home.js",
        null,
        ["assets/app.js"],
        [
          "/app/src/app/index-layout.tsx",
          "/app/src/features/home/screens/home-screen.tsx",
          "/app/src/features/home/prefetch.ts",
        ],
      ),
      "assets/app.js": chunk("assets/app.js", null, [], ["/app/src/main.tsx"]),
      "assets/start-en.js": chunk("assets/start-en.js", null, [], ["/app/src/locales/en.json"]),
      "assets/home-en.js": chunk(
        "assets/home-en.js",
        null,
        [],
        ["/app/src/features/home/locales/en.json", "/app/src/features/family/locales/en.json"],
      ),
    } as unknown as Rolldown.OutputBundle;
    expect(homeChunks(bundle, ["en"])).toEqual({
      js: ["assets/home.js", "assets/app.js"],
      css: [],
      texts: { en: ["assets/start-en.js", "assets/home-en.js"] },
    });
  });
});
