import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./passwords.ts";

describe("password hashing", () => {
  it("uses argon2id and verifies only the right password", async () => {
    const h = await hashPassword("demo1234");
    expect(h.startsWith("$argon2id$")).toBe(true);
    expect(h).toContain("m=19456,t=2,p=1");
    expect(await verifyPassword(h, "demo1234")).toBe(true);
    expect(await verifyPassword(h, "demo12345")).toBe(false);
    expect(await verifyPassword("not-a-hash", "demo1234")).toBe(false);
    expect(await verifyPassword(null, "demo1234")).toBe(false);
  });
});
