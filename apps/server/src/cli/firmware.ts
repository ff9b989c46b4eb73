/**
 * Operator and vendor script for signed firmware images (docs/device-protocol.md §3.7 "Firmware update"). Uses the
 * server's configuration (DATABASE_URL or the SQLite file in DATA_DIR; FIRMWARE_SIGNING_PUBLIC_KEYS).
 *
 *   npm run firmware -- upload --model AQ-S25 --version 1.2.0 --file image.bin --signature <base64>
 *       [--size <bytes>] [--sha256 <hex>]
 *   npm run firmware -- upload --model AQ-S25 --version 1.2.0 --file image.bin --sign-with-dev-key   (not production)
 *   npm run firmware -- list [--json]
 *   npm run firmware -- sign --key vendor.key --file image.bin        (offline, at the vendor; no database)
 *   npm run firmware -- dev-public-key                                 (the development key, raw base64)
 *
 * `sign` prints the image's size, SHA-256 and the Ed25519 signature over its digest made with a PKCS #8 PEM private
 * key (`openssl genpkey -algorithm ed25519 -out vendor.key`), so the vendor signs where its key lives and hands the
 * operator the image and the signature. Refused uploads print the reason in English and exit 1.
 * Exit codes: 0 done, 1 refused, 2 bad usage or configuration.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { AppConfig } from "../config.ts";
import { type Db, openDatabase } from "../db/index.ts";
import { AppError } from "../http/errors.ts";
import { translate } from "../http/messages.ts";
import {
  listFirmware,
  loadOrCreateDevSigningKey,
  rawPublicKeyBase64,
  readSigningKey,
  signFirmwareDigest,
  trustedFirmwareKeys,
  uploadFirmware,
} from "../modules/firmware/index.ts";
import { loadCliConfig } from "./cli-config.ts";

const USAGE = [
  "usage: npm run firmware -- upload --model <model> --version <x.y.z> --file <image> (--signature <base64> | --sign-with-dev-key) [--size <bytes>] [--sha256 <hex>]",
  "       npm run firmware -- list [--json]",
  "       npm run firmware -- sign --key <vendor.key> --file <image>",
  "       npm run firmware -- dev-public-key",
  "",
].join("\n");

/** Where the CLI writes; tests pass collectors. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const OPTIONS = {
  model: { type: "string" },
  version: { type: "string" },
  file: { type: "string" },
  signature: { type: "string" },
  size: { type: "string" },
  sha256: { type: "string" },
  key: { type: "string" },
  json: { type: "boolean" },
  "sign-with-dev-key": { type: "boolean" },
} as const;

/**
 * Runs the firmware CLI with `argv` (without node and script); answers the exit code. `open` opens the database
 * (called only by `upload` and `list`, closed afterwards by the caller).
 */
export async function runFirmwareCli(
  argv: string[],
  io: CliIo,
  deps: { config: AppConfig; db: () => Promise<Db>; now?: () => Date },
): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...extra] = positionals;
  if (extra.length > 0) {
    io.err(USAGE);
    return 2;
  }
  const { config } = deps;
  const readImage = (): Buffer | null => {
    if (!values.file) return null;
    try {
      return fs.readFileSync(values.file);
    } catch (err) {
      io.err(`cannot read ${values.file}: ${(err as Error).message}\n`);
      return null;
    }
  };
  if (command === "sign") {
    if (!values.key || !values.file) {
      io.err(USAGE);
      return 2;
    }
    const bytes = readImage();
    if (!bytes) return 2;
    let key: ReturnType<typeof readSigningKey>;
    try {
      key = readSigningKey(values.key);
    } catch (err) {
      io.err(`${(err as Error).message.split("\n")[0]}\n`);
      return 2;
    }
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    io.out(
      `${JSON.stringify({ size: bytes.length, sha256, signature: signFirmwareDigest(key.privateKey, sha256), publicKey: rawPublicKeyBase64(key.publicKey) }, null, 2)}\n`,
    );
    return 0;
  }
  if (command === "dev-public-key") {
    if (config.APP_ENV === "production") {
      io.err("there is no development vendor key in production\n");
      return 2;
    }
    io.out(`${rawPublicKeyBase64(loadOrCreateDevSigningKey(config.DATA_DIR).publicKey)}\n`);
    return 0;
  }
  if (command === "list") {
    const images = await listFirmware(await deps.db());
    if (values.json) io.out(`${JSON.stringify(images, null, 2)}\n`);
    else if (images.length === 0) io.out("no firmware images\n");
    else {
      io.out(
        `${images.map((i) => `${i.model}  ${i.version}  ${i.size} bytes  sha256 ${i.sha256}  ${i.createdAt}`).join("\n")}\n`,
      );
    }
    return 0;
  }
  if (command === "upload") {
    const devSign = values["sign-with-dev-key"] === true;
    if (!values.model || !values.version || !values.file || (devSign && values.signature !== undefined)) {
      io.err(USAGE);
      return 2;
    }
    if (devSign && config.APP_ENV === "production") {
      io.err("--sign-with-dev-key is refused in production: sign with the vendor's key (the sign command)\n");
      return 2;
    }
    const size = values.size === undefined ? undefined : Number(values.size);
    if (size !== undefined && !Number.isInteger(size)) {
      io.err(USAGE);
      return 2;
    }
    const bytes = readImage();
    if (!bytes) return 2;
    let signature = values.signature;
    if (devSign) {
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      signature = signFirmwareDigest(loadOrCreateDevSigningKey(config.DATA_DIR).privateKey, sha256);
    }
    try {
      const image = await uploadFirmware(
        {
          db: await deps.db(),
          dataDir: config.DATA_DIR,
          trustedKeys: trustedFirmwareKeys(config),
          now: deps.now ?? (() => new Date()),
        },
        { model: values.model, version: values.version, bytes, size, sha256: values.sha256, signature },
      );
      io.out(`stored ${image.model} ${image.version}: ${image.size} bytes, sha256 ${image.sha256}\n`);
      return 0;
    } catch (err) {
      if (err instanceof AppError) {
        io.err(`refused: ${translate("en", err.messageKey, err.params)}\n`);
        return 1;
      }
      throw err;
    }
  }
  io.err(USAGE);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  const config = loadCliConfig();
  if (!config) return 2;
  let db: Db | null = null;
  try {
    return await runFirmwareCli(
      argv,
      { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) },
      {
        config,
        db: async () => {
          db ??= (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR })).db;
          return db;
        },
      },
    );
  } finally {
    await (db as Db | null)?.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: Error) => {
      process.stderr.write(`${err.stack ?? err.message}\n`);
      process.exit(2);
    },
  );
}
