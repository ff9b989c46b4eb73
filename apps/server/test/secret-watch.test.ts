import { describe, expect, it } from "vitest";
import { endpoints } from "../../../packages/contract/src/routes.generated.ts";
import { createTestApp, latestCode } from "./helpers.ts";
import { createSecretWatch, PLAIN_PARAMETERS, SECRET_PARAMETERS } from "./secret-watch.ts";

describe("the secret watch over test apps' logs", () => {
  it("has every parameter of the contract judged by hand as secret or plain", () => {
    const names = new Set<string>();
    for (const route of Object.values(endpoints)) {
      if (!route) continue;
      for (const name of [...(route.query ?? []), ...(route.body ?? [])]) names.add(name);
    }
    const unjudged = [...names].filter((n) => !SECRET_PARAMETERS.has(n) && !PLAIN_PARAMETERS.has(n));
    expect(unjudged).toEqual([]);
    expect([...SECRET_PARAMETERS].filter((n) => PLAIN_PARAMETERS.has(n))).toEqual([]);
  });

  it("finds a secret of the traffic in a log line, and a code only as a whole number", () => {
    const watch = createSecretWatch();
    watch.remember("s3cret-Pass");
    watch.remember("042917");
    watch.remember("12345"); // too short to watch
    expect(watch.leaks(['{"msg":"ok","time":1765104291700}', '{"n":12345}'])).toEqual([]);
    expect(watch.leaks(['{"url":"/x?confirm=s3cret-Pass"}'])).toEqual(['s3… in: {"url":"/x?confirm=«secret»"}']);
    expect(watch.leaks(["code 042917 sent"])).toHaveLength(1);
  });

  it("fails a test app's close when its traffic's secret reached the log", async () => {
    const t = await createTestApp();
    const email = "watch@example.com";
    await t.app.inject({ method: "GET", url: endpoints.sendEmailPasswordCode.path, query: { email } });
    const code = await latestCode(t.app, email);
    t.app.log.info({ note: `about ${code}` }, "a careless line");
    await expect(t.close()).rejects.toThrow(/secrets in the server log/);
  });
});
