import { endpoints, FAMILY_AVATAR_PRESETS } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyWithDevices, signUpUser, type TestFamily, type TestUser } from "../../../test/api-factories.ts";
import { multipartBody, PNG_1X1 } from "../../../test/api-fuzz-cases.ts";
import { call } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";

/**
 * A household's avatar is a picture shipped with the app or an image its administrator uploaded — never an outside
 * URL, another path, or another user's upload (docs/security.md "Input at the edge").
 */
describe("household avatars (update-family-avatar, create family)", () => {
  let t: TestApp;
  let admin: TestUser;
  let other: TestUser;
  let home: TestFamily;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signUpUser(t.app, "admin@avatar.test");
    other = await signUpUser(t.app, "other@avatar.test");
    home = await familyWithDevices(t, admin);
  });
  afterAll(() => t.close());

  const upload = async (as: TestUser) => {
    const { payload, contentType } = multipartBody([
      { name: "file", filename: "a.png", type: "image/png", data: PNG_1X1 },
    ]);
    const res = await call(t, endpoints.uploadFile, { as, body: payload, headers: { "content-type": contentType } });
    expect(res.status).toBe(200);
    return res.result.fileUrl;
  };
  const setAvatar = (avatar: string) =>
    call(t, endpoints.updateFamilyAvatar, { as: admin, query: { familyId: home.id, avatar } });

  it("takes a preset picture and the administrator's own upload", async () => {
    const preset = await setAvatar(FAMILY_AVATAR_PRESETS[2]);
    expect(preset.status).toBe(200);
    expect(preset.result.avatar).toBe("/family-avatars/3.svg");
    const own = await upload(admin);
    const uploaded = await setAvatar(own);
    expect(uploaded.status).toBe(200);
    expect(uploaded.result.avatar).toBe(own);
  });

  it("refuses outside URLs, other paths and another user's upload, and keeps the avatar it had", async () => {
    const before = (await setAvatar(FAMILY_AVATAR_PRESETS[0])).result.avatar;
    const othersUpload = await upload(other);
    for (const avatar of [
      "javascript:alert(1)",
      "http://169.254.169.254/latest/meta-data/",
      "//evil.example/a.png",
      "../../etc/passwd",
      "/family-avatars/9.svg",
      "/uploads/files/0123456789abcdef0123456789abcdef.png",
      othersUpload,
    ]) {
      const res = await setAvatar(avatar);
      expect(res.status, avatar).toBe(400);
    }
    const created = await call(t, endpoints.createFamily, {
      as: admin,
      body: { name: "Cabin", avatar: "https://evil.example/a.png" },
    });
    expect(created.status).toBe(400);
    const now = await call(t, endpoints.getFamily, { as: admin, params: { id: home.id } });
    expect(now.result.avatar).toBe(before);
  });
});
