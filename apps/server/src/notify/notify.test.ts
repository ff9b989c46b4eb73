import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, describeEndpoint } from "../../test/call.ts";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { type SmtpSink, startSmtpSink } from "../../test/smtp-sink.ts";

describeEndpoint(endpoints.sendEmailPasswordCode, "e-mail through SMTP_URL", () => {
  let smtp: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("delivers the code e-mail in the caller's language and keeps it in the outbox", async () => {
    const res = await call(t, endpoints.sendEmailPasswordCode, { query: { email: "mail@example.com" }, lang: "es" });
    expect(res.status).toBe(200);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].to).toBe("mail@example.com");
    const [kept] = (await t.app.inject({ method: "GET", url: "/dev/outbox" })).json();
    const code = kept.body.match(/\d{6}/)[0];
    expect(smtp.mails[0].text).toContain(code);
    expect(kept.subject).toBe("Su código de verificación de AquaPilot");
    // With SMTP configured the code is not written to the log.
    expect(t.logs.join("")).not.toContain(code);
  });
});

describeEndpoint(endpoints.sendEmailPasswordCode, "a failed delivery", () => {
  it("answers 500 with the send-failed message and lets the user ask again at once", async () => {
    let fail = true;
    const t = await createTestApp({
      mailer: {
        async send() {
          if (fail) throw new Error("SMTP down");
        },
      },
    });
    try {
      const ask = () => call(t, endpoints.sendEmailPasswordCode, { query: { email: "down@example.com" } });
      const res = await ask();
      expect(res.status).toBe(500);
      expect(res.body.error.message).toBe("The code could not be sent. Please try again later.");
      fail = false;
      expect((await ask()).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe("the built web app", () => {
  it("is served at / when the folder has index.html, beside the API", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-web-"));
    fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>AquaPilot</title>");
    const t = await createTestApp({ webDistDir: dir });
    try {
      const page = await t.app.inject({ method: "GET", url: "/" });
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.body).toContain("<title>AquaPilot</title>");
      const api = await call(t, endpoints.userBindTypeList, { lang: null });
      expect(api.body.success).toBe(true);
      const missing = await t.app.inject({ method: "GET", url: "/api/missing" });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().__abp).toBe(true);
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
