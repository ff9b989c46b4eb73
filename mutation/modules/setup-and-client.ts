import type { MutationModule } from "../modules.ts";

/**
 * Mutation-tested rules of the network set-up (the provisioning package's packet codecs and set-up flow) and of the
 * web client's error and retry handling (mutation/modules.ts gives the shape of an entry).
 */
const modules: MutationModule[] = [
  {
    name: "blsync-frames",
    title:
      "Bluetooth set-up frames: fragmenting, sequence, encryption header, reassembly, the module-side parser model " +
      "(docs/device-protocol.md §13; bl_iot_sdk blsync_ble transfer.c, encrypt_layer.c, payload.c)",
    // The frame error, the layout bits and the codec functions; the UUIDs and id tables above them are names only.
    mutate: ["packages/provisioning/src/blsync.ts:147-516"],
    tests: {
      root: "packages/provisioning",
      include: ["src/blsync.test.ts", "src/blsync-layout.test.ts"],
    },
    equivalent: {
      "blsync.ts: payload.length < 2 → false":
        "the next test, payload[0] !== payload.length − 2, already refuses such payloads: an empty one reads undefined " +
        "(≠ −2) and a 1-byte one reads a byte 0–255 (≠ −1), so decodeFrame throws the same error either way",
      'blsync.ts: [] → ["Stryker was here"]':
        "the assembler's first `parts` value is never read: a first push either has index 0, which calls reset() " +
        "(parts = []) before anything is added, or is refused as out of order, which also calls reset()",
      "blsync.ts: first → true":
        "frameOf's total-length write on a later fragment lands on bytes 4–5, which it then overwrites with the length " +
        "byte and the encryption header's zero: the frame is the same",
      "blsync.ts: data.length - sent → data.length + sent":
        "n only decides `last` and the subarray's end: when the room is smaller than what is left both give the room; " +
        "otherwise both make `last` true and subarray stops at the end of the data, so the frames are the same",
      "blsync.ts: body.length - sent → body.length + sent":
        "as for data.length − sent in encodeMessage: `last` and the clipped subarray come out the same",
      "blsync.ts: bytes.length < 5 → false":
        "decodeFrame's check is killed by its own test; in BlsyncReceiver a frame under 5 bytes still ends refused " +
        "without dropping anything: fragment 0 fails `bytes.length < 7`, a later one compares a missing length byte",
      "blsync.ts: bytes.length < 7 → false":
        "decodeFrame's check is killed by its own test; in BlsyncReceiver a fragment 0 under 7 bytes reads its length " +
        "byte as undefined, so the length comparison refuses it without dropping anything, as the check does",
    },
  },
  {
    name: "broadlink-packets",
    title:
      "Access-point set-up packets and their checksum (docs/device-protocol.md §13; python-broadlink setup(), " +
      "scan(), Datetime.pack)",
    // The packet error and the codec functions; the constants above them are names and ports.
    mutate: ["packages/provisioning/src/broadlink.ts:67-365"],
    tests: {
      root: "packages/provisioning",
      include: ["src/broadlink.test.ts", "src/broadlink-layout.test.ts"],
    },
    equivalent: {
      "broadlink.ts: i < 6 → i <= 6":
        'a seventh round writes parseInt("") = NaN, stored as 0, at 0x40: the name is written there right after, ' +
        "and an empty name leaves that byte 0 anyway",
      "broadlink.ts: (5 - i) * 2 → (5 - i) / 2":
        "the slice then starts earlier but still ends after the byte's two hex digits: the longer number (≤ 10 hex " +
        "digits, exact in a double) has the same value modulo 256, and a Uint8Array stores exactly that",
      "broadlink.ts: nameEnd > 0x7f → nameEnd >= 0x7f": "when nameEnd is 0x7f both sides end the name at 0x7f",
      'broadlink.ts: "join ack" → ""':
        "the name only goes into the message of an error isJoinAck catches and turns into false; nothing reads it",
    },
  },
  {
    name: "setup-flow",
    title:
      "Network set-up flows' steps, failures, the module's Wi-Fi state answer and the product's custom data (spec §4 " +
      "network setup; docs/device-protocol.md §13, blsync_ble.c CMD_WIFI_STATE_GET, transfer.h DATA_CUSTOM_DATA)",
    mutate: ["packages/provisioning/src/setup.ts"],
    tests: {
      root: "packages/provisioning",
      include: ["src/setup.test.ts", "src/setup-answer.test.ts"],
    },
    equivalent: {
      "setup.ts: { return null; } → {}":
        "bytes that are not UTF-8 leave `ticket` undefined, which SETUP_TICKET_PATTERN.test reads as the 9 characters " +
        '"undefined": no match, so parseSetupCustomData answers null all the same',
    },
  },
  {
    name: "web-error-envelope",
    title:
      "Web client error mapping: how an answer, or no answer, becomes the result or the error the user reads " +
      "(spec §8 errors: codes -1 and -2, 401 Login expired, server message, error_description, status text)",
    // envelope.ts whole; of transport.ts the error of a call that got no answer (networkError).
    mutate: ["apps/web/src/shared/api/envelope.ts", "apps/web/src/shared/api/transport.ts:259-262"],
    tests: {
      root: "apps/web",
      include: ["src/shared/api/error-envelope.test.ts"],
      environment: "happy-dom",
      viteConfig: "apps/web/vite.config.ts",
    },
    // readJson's three survivors: its `catch(() => "")` and `if (!text)` only shortcut what JSON.parse's own catch
    // already answers (null for an empty, undefined or non-JSON text).
    equivalent: {
      "envelope.ts: !text → false": "JSON.parse of an empty text throws, and readJson's catch answers the same null",
      'envelope.ts: "" → "Stryker was here!"':
        "readJson's unreadable-body text: any non-JSON text ends in JSON.parse's catch, which answers null as well " +
        "(the key also names envelope.ts's other empty strings; those are killed today)",
      'envelope.ts: () => "" → () => undefined':
        "an unreadable body's text undefined is falsy, so readJson answers null as it does for the empty text",
    },
  },
  {
    name: "web-error-retry",
    title:
      "Web client errors and retries: which queries are asked again, which calls are resent (only keyed ones), " +
      "how an error becomes the user's text (spec §7 idempotency keys, §8 errors)",
    // errors.ts and idempotency.ts whole; of query-client.ts the retry rule, the error report and the retry options
    // (not the language refetch, the prefetch bookkeeping or the timer set-up, tested by their own suites).
    mutate: [
      "apps/web/src/shared/api/errors.ts",
      "apps/web/src/shared/api/idempotency.ts",
      "apps/web/src/shared/api/query-client.ts:37-61",
      "apps/web/src/shared/api/query-client.ts:66-68",
    ],
    tests: {
      root: "apps/web",
      include: ["src/shared/api/error-retry-rules.test.ts"],
      environment: "happy-dom",
      viteConfig: "apps/web/vite.config.ts",
    },
    equivalent: {},
  },
];

export default modules;
