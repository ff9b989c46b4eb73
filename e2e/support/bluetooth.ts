import type { CDPSession, Page } from "playwright-core";

/** One device a Web Bluetooth chooser offers (DevTools DeviceAccess.PromptDevice). */
export interface PromptDevice {
  id: string;
  name: string;
}

/** What the test's stand-in for the owner does with each chooser. */
export type ChooserAnswer = (devices: PromptDevice[]) => string | null | "wait";

/**
 * Answers the page's Web Bluetooth device choosers as an owner would (network-setup browser tests): the DevTools
 * `DeviceAccess` domain exists only on the page's own CDP session. `answer` gets the devices offered and returns the
 * id to select, null to cancel the chooser, or "wait" to let a later update of the same prompt decide (Chromium
 * raises `deviceRequestPrompted` again for one prompt id as devices appear). Each prompt id is answered once:
 * selecting twice crashes Chromium.
 * @returns the page session and how many prompts were answered (selected or cancelled) so far.
 */
export async function answerDeviceChoosers(
  page: Page,
  answer: ChooserAnswer,
): Promise<{ session: CDPSession; answered: () => number; stop: () => Promise<void> }> {
  const session = await page.context().newCDPSession(page);
  await session.send("DeviceAccess.enable");
  const done = new Set<string>();
  const onPrompt = (event: { id: string; devices: PromptDevice[] }) => {
    if (done.has(event.id)) return;
    const choice = answer(event.devices);
    if (choice === "wait") return;
    done.add(event.id);
    const reply =
      choice === null
        ? session.send("DeviceAccess.cancelPrompt", { id: event.id })
        : session.send("DeviceAccess.selectPrompt", { id: event.id, deviceId: choice });
    reply.catch(() => undefined); // the page may have gone away meanwhile
  };
  session.on("DeviceAccess.deviceRequestPrompted", onPrompt);
  return {
    session,
    answered: () => done.size,
    stop: async () => {
      session.off("DeviceAccess.deviceRequestPrompted", onPrompt);
      await session.detach().catch(() => undefined);
    },
  };
}
