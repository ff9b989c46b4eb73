import { afterEach, describe, expect, it } from "vitest";
import { clearEnding, endingOfReason, noteEnding, readEnding } from "./ending.ts";

afterEach(() => clearEnding());

describe("why a session ended (shown on Login)", () => {
  it("maps the token endpoint's reasons; none or an unknown one is 'Login expired'", () => {
    expect(endingOfReason("password-changed")).toBe("passwordChanged");
    expect(endingOfReason("password-reset")).toBe("passwordChanged");
    expect(endingOfReason("account-deleted")).toBe("accountDeleted");
    expect(endingOfReason("logout")).toBe("sessionEnded");
    expect(endingOfReason(null)).toBe("loginExpired");
  });

  it("a specific reason is not replaced by the 'Login expired' of the 401s after it; a new one replaces it", () => {
    expect(readEnding()).toBeNull();
    noteEnding("passwordChanged");
    noteEnding("loginExpired");
    expect(readEnding()).toBe("passwordChanged");
    noteEnding("accountDeleted");
    expect(readEnding()).toBe("accountDeleted");
    clearEnding();
    noteEnding("loginExpired");
    expect(readEnding()).toBe("loginExpired");
  });

  it("ignores what it does not know in storage", () => {
    localStorage.setItem("sessionEnding", JSON.stringify("somethingElse"));
    expect(readEnding()).toBeNull();
  });
});
