import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyWithDevices, joinWithShareCode, signUpUser, type TestUser } from "../../../test/api-factories.ts";
import { type Caller, call, describeEndpoint } from "../../../test/call.ts";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { provisionDevice } from "../devices/provision.ts";
import { UPLOADS_PER_MINUTE } from "./service.ts";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082",
  "hex",
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1), Buffer.from([0xff, 0xd9])]);

function multipart(file: Buffer, filename: string, type: string): { payload: Buffer; contentType: string } {
  const boundary = "----aquapilot-files-test";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe("image upload (contract uploadFile) and device photos (update-device-image)", () => {
  let t: TestApp;
  let clock = Date.parse("2026-03-01T08:00:00Z");
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let deviceId: string;

  const upload = (as: Caller, file: Buffer, name: string, type: string, lang = "en") => {
    const { payload, contentType } = multipart(file, name, type);
    return call(t, endpoints.uploadFile, { as, body: payload, headers: { "content-type": contentType }, lang });
  };
  const setImage = (as: Caller, image: string, lang = "en") =>
    call(t, endpoints.updateDeviceImage, { as, query: { deviceId, image }, lang });

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    owner = await signUpUser(t.app, "owner@files.test");
    member = await signUpUser(t.app, "member@files.test");
    stranger = await signUpUser(t.app, "stranger@files.test");
    const home = await familyWithDevices(t, owner);
    await joinWithShareCode(t.app, home, owner, member);
    await provisionDevice(t.db, { mac: "02BB00000001", secret: "secret-f", name: "Softener F", model: "AQ-S25" });
    const bound = await call(t, endpoints.bindDevice, {
      as: owner,
      body: { familyId: home.id, code: "02BB00000001:secret-f" },
    });
    expect(bound.status).toBe(200);
    deviceId = bound.result.id;
  });
  afterAll(() => t.close());

  describeEndpoint(endpoints.uploadFile, () => {
    it("stores an image under /uploads/files/ with a random name and serves it read-only with nosniff", async () => {
      const res = await upload(owner, PNG, "photo.png", "image/png");
      expect(res.status).toBe(200);
      const result = res.result;
      expect(result).toMatchObject({ contentType: "image/png", size: PNG.length });
      expect(result.fileUrl).toMatch(/^\/uploads\/files\/[0-9a-f]{32}\.png$/);
      const got = await t.app.inject({ method: "GET", url: result.fileUrl });
      expect(got.statusCode).toBe(200);
      expect(got.headers["content-type"]).toBe("image/png");
      expect(got.headers["x-content-type-options"]).toBe("nosniff");
      expect(got.rawPayload.equals(PNG)).toBe(true);
      expect((await t.app.inject({ method: "DELETE", url: result.fileUrl })).statusCode).toBe(404);
      const jpeg = await upload(owner, JPEG, "p.jpg", "image/jpeg");
      expect(jpeg.result.fileUrl).toMatch(/\.jpg$/);
    });

    it("refuses a file whose bytes are not an image, a type mismatch, no file, an oversized one and anonymous callers", async () => {
      const svg = await upload(owner, Buffer.from("<svg onload=alert(1)>"), "x.png", "image/png", "fr");
      expect(svg.status).toBe(400);
      expect(svg.body.error.message).toBe("L'image doit être un fichier PNG, JPEG ou WebP.");
      expect((await upload(owner, PNG, "x.jpg", "image/jpeg")).status).toBe(400);
      const none = await call(t, endpoints.uploadFile, { as: owner, body: {} });
      expect(none.status).toBe(400);
      const big = await upload(owner, Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), "big.png", "image/png");
      expect(big.status).toBe(400);
      expect(big.body.error.message).toBe("The image must be at most 5 MB.");
      expect((await upload(undefined, PNG, "x.png", "image/png")).status).toBe(401);
    });

    it(`allows ${UPLOADS_PER_MINUTE} uploads per user per minute`, async () => {
      clock += 120_000;
      for (let i = 0; i < UPLOADS_PER_MINUTE; i++) {
        expect((await upload(stranger, PNG, `${i}.png`, "image/png")).status).toBe(200);
      }
      const over = await upload(stranger, PNG, "over.png", "image/png");
      expect(over.status).toBe(429);
      expect((await upload(owner, PNG, "other.png", "image/png")).status).toBe(200);
      clock += 61_000;
      expect((await upload(stranger, PNG, "later.png", "image/png")).status).toBe(200);
    });
  });

  describeEndpoint(endpoints.updateDeviceImage, "device photos", () => {
    it("sets a device photo only from the caller's own uploads or the model's pictures", async () => {
      const mine = (await upload(member, PNG, "softener.png", "image/png")).result.fileUrl;
      const ok = await setImage(member, mine);
      expect(ok.status).toBe(200);
      expect(ok.result.image).toBe(mine);

      const strangers = (await upload(stranger, PNG, "s.png", "image/png")).result.fileUrl;
      const foreign = await setImage(member, strangers, "es");
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.message).toBe("Esta imagen no se subió desde su cuenta. Vuelva a subirla.");
      const invented = await setImage(owner, "/uploads/files/0123456789abcdef0123456789abcdef.png");
      expect(invented.status).toBe(400);
      const outside = await setImage(owner, "/somewhere/else.png");
      expect(outside.status).toBe(400);
      expect(outside.body.error.message).toBe("Choose one of the device model's pictures or upload a photo.");
      // Nothing changed by the refused calls.
      const detail = await call(t, endpoints.getDeviceWithData, { as: owner, query: { deviceId } });
      expect(detail.result.image).toBe(mine);

      const model = await setImage(owner, "/device-images/aq-s25.svg");
      expect(model.result.image).toBe("/device-images/aq-s25.svg");
      // A stranger cannot set even their own upload on someone else's device, which looks absent to them.
      expect((await setImage(stranger, strangers)).status).toBe(404);
    });
  });
});
