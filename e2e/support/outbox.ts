/**
 * Waits (at most 10 s) for the newest 6-digit code sent to `recipient` (an e-mail, or "+<country code><digits>" for
 * SMS) in the server's development outbox (GET /dev/outbox), and returns it. Usable in hooks and tests alike.
 * @throws when no code arrives in time.
 */
export async function codeFromOutbox(baseUrl: string, recipient: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${baseUrl}/dev/outbox?recipient=${encodeURIComponent(recipient)}`);
    const rows = (await res.json()) as Array<{ body: string }> | { result: Array<{ body: string }> };
    const list = Array.isArray(rows) ? rows : rows.result;
    const code = list[0] ? /\b(\d{6})\b/.exec(list[0].body)?.[1] : undefined; // newest first
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200)); // the interval between two looks at the outbox
  }
  throw new Error(`no code for ${recipient} in ${baseUrl}/dev/outbox within 10 s`);
}
