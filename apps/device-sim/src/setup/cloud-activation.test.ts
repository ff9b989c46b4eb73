import { ACTIVATION_PATHS, ZActivationBeginResult, ZActivationCompleteResult } from "@aquapilot/contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { activationStepTwoBody, postActivationStep } from "./cloud-activation.ts";
import { startTestCloud, type TestCloud } from "./test-cloud.ts";

const MAC = "02AC00000001";
const SECRET = "factory-secret-of-a-softener-0001";
const TICKET = "AbCdEfGhIjKlMnOpQrStUv";

/** The module's activation calls against the test cloud (docs/device-protocol.md §13.4, "Setup tickets"). */
describe("activation step two with a setup ticket", () => {
  let cloud: TestCloud;
  const controller = new AbortController();

  beforeEach(async () => {
    cloud = await startTestCloud();
    cloud.registry.set(MAC, SECRET);
  });
  afterEach(() => cloud.close());

  const step = (path: string, body: Record<string, unknown>, setupTicket?: string) =>
    postActivationStep({
      serverUrl: cloud.serverUrl,
      path,
      body,
      step: path === ACTIVATION_PATHS.begin ? "step one" : "step two",
      signal: controller.signal,
      timeoutMs: 5_000,
      setupTicket,
    });

  it("sends the phone's ticket as setupTicket in step two only, and nothing when there is none", async () => {
    const begin = ZActivationBeginResult.parse(await step(ACTIVATION_PATHS.begin, { mac: MAC }, TICKET));
    expect(cloud.calls[0]?.body).toEqual({ mac: MAC });
    const done = await step(ACTIVATION_PATHS.complete, { mac: MAC, nonce: begin.nonce, secret: SECRET }, TICKET);
    expect(ZActivationCompleteResult.parse(done).pairingCode).toMatch(/^02AC00000001:/);
    expect(cloud.calls[1]?.body).toEqual({ mac: MAC, nonce: begin.nonce, secret: SECRET, setupTicket: TICKET });

    const again = ZActivationBeginResult.parse(await step(ACTIVATION_PATHS.begin, { mac: MAC }));
    await step(ACTIVATION_PATHS.complete, { mac: MAC, nonce: again.nonce, secret: SECRET });
    expect(cloud.calls[3]?.body).toEqual({ mac: MAC, nonce: again.nonce, secret: SECRET });
  });

  it("builds the body of step two with the ticket only when given", () => {
    const base = { mac: MAC, nonce: "n".repeat(20), secret: SECRET };
    expect(activationStepTwoBody(base)).toEqual(base);
    expect(activationStepTwoBody({ ...base, setupTicket: undefined })).not.toHaveProperty("setupTicket");
    expect(activationStepTwoBody({ ...base, setupTicket: TICKET })).toEqual({ ...base, setupTicket: TICKET });
  });
});
