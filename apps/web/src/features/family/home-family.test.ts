import { beforeEach, describe, expect, it } from "vitest";
import { getItem, setItem } from "../../shared/storage/index.ts";
import { homeFamilyId, markedHomeFamily, setHomeFamily } from "./home-family.ts";

const signIn = (userName: string) => setItem("loginInfo", { userName, grantedPolicies: [], token: "t" });

beforeEach(() => localStorage.clear());

describe("home family per user name (spec §3 userFamilyCache)", () => {
  it("remembers one family per user and the family key", () => {
    signIn("alice");
    setHomeFamily({ id: "f1", name: "Home" });
    signIn("bob");
    expect(homeFamilyId()).toBeNull();
    setHomeFamily({ id: "f2", name: "Flat" });
    expect(getItem("userFamilyCache")).toEqual({ alice: "f1", bob: "f2" });
    expect(getItem("family")).toEqual({ id: "f2", name: "Flat" });
    signIn("alice");
    expect(homeFamilyId()).toBe("f1");
  });

  it("marks the cached family in a list, else the first", () => {
    expect(markedHomeFamily([{ id: "a" }, { id: "b" }], "b")?.id).toBe("b");
    expect(markedHomeFamily([{ id: "a" }, { id: "b" }], "gone")?.id).toBe("a");
    expect(markedHomeFamily([], "a")).toBeNull();
  });
});
