import { afterEach, describe, expect, it } from "vitest";
import { clearLoginInfo } from "../shared/auth/session.ts";
import { clearSession, getItem } from "../shared/storage/index.ts";
import { localDay, SNAPSHOT_MAX_CHARS, saveSnapshot, snapshotChildren } from "./snapshot.ts";

describe("Home snapshot (painted on the next start before the app's code)", () => {
  afterEach(() => {
    localStorage.clear();
  });

  it("takes elements, text, attributes and the CSSOM's inline style; leaves out scripts, handlers, test ids, comments", () => {
    const root = document.createElement("div");
    root.innerHTML =
      '<p class="a" data-x="1" data-testid="p">Hi <b>there</b></p><script>alert(1)</script><!-- c -->' +
      '<img src="/i.png" onerror="x()">';
    root.querySelector("p")?.style.setProperty("color", "red", "important");
    expect(snapshotChildren(root)).toEqual([
      ["p", ["class", "a", "data-x", "1"], ["color", "red", "important"], ["Hi ", ["b", [], [], ["there"]]]],
      ["img", ["src", "/i.png"], [], []],
    ]);
  });

  it("keeps the day, the language and the nodes; too large a screen removes the kept one", () => {
    const root = document.createElement("div");
    root.textContent = "Softener 1";
    saveSnapshot(root, "fr", new Date(2026, 10, 5, 23, 59));
    expect(getItem("homeSnapshot")).toEqual({ v: 1, lang: "fr", day: "2026-11-05", nodes: ["Softener 1"] });

    root.textContent = "x".repeat(SNAPSHOT_MAX_CHARS + 1);
    saveSnapshot(root, "fr");
    expect(getItem("homeSnapshot")).toBeNull();
  });

  it("is the phone's local day", () => {
    expect(localDay(new Date(2026, 0, 9, 0, 0))).toBe("2026-01-09");
  });

  it("is removed at sign-out and when Login clears the login info, so the next account never sees it", () => {
    const root = document.createElement("div");
    root.textContent = "Lake house";
    saveSnapshot(root, "en");
    clearSession();
    expect(getItem("homeSnapshot")).toBeNull();
    saveSnapshot(root, "en");
    clearLoginInfo();
    expect(getItem("homeSnapshot")).toBeNull();
  });
});
