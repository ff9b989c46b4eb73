import { expect } from "vitest";

/**
 * Waits for the newest 6-digit code sent to `recipient` (an e-mail, or "+<country code><digits>" for SMS) in the
 * server's development outbox (GET /dev/outbox), and returns it.
 */
export async function codeFromOutbox(baseUrl: string, recipient: string, after = 0): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${baseUrl}/dev/outbox?recipient=${encodeURIComponent(recipient)}`);
        const rows = (await res.json()) as Array<{ body: string }> | { result: Array<{ body: string }> };
        const list = Array.isArray(rows) ? rows : rows.result;
        // Newest first; `after` skips codes that were already used.
        code = list.length > after ? /\b(\d{6})\b/.exec(list[0].body)?.[1] : undefined;
        return code;
      },
      { timeout: 10_000 },
    )
    .toMatch(/^\d{6}$/);
  return code!;
}
