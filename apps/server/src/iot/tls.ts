import { createPublicKey, randomBytes, randomUUID, X509Certificate } from "node:crypto";
import fs from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import tls from "node:tls";
import * as x509 from "@peculiar/x509";
import { ConfigError } from "../config.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../data-dir.ts";

/**
 * Certificates of the device link's TLS (docs/device-protocol.md "Transport security"): the operator's broker
 * certificate, or a development CA the server creates in DATA_DIR and a broker certificate it issues from it. Devices
 * pin the CA, not the broker certificate, so the broker certificate can be issued again at any time.
 */

// The global Web Crypto (Node's webcrypto): its types are the ones @peculiar/x509 declares, with or without the DOM
// library in the compiler's view (the browser tests' project includes it).
x509.cryptoProvider.set(globalThis.crypto);

/** Folder under DATA_DIR holding the development CA and the broker certificate issued from it. */
export const DEV_TLS_DIR = "tls";
/** The development CA's certificate (PEM): what a device built for development pins. */
export const DEV_CA_CERT_FILE = "ca.crt";
/** The development CA's private key (PKCS #8 PEM, mode 0600). */
export const DEV_CA_KEY_FILE = "ca.key";
/** The broker certificate issued from the development CA (PEM). */
export const DEV_BROKER_CERT_FILE = "broker.crt";
/** The broker certificate's private key (PKCS #8 PEM, mode 0600). */
export const DEV_BROKER_KEY_FILE = "broker.key";

/** Validity of a new development CA, days. */
export const DEV_CA_DAYS = 3650;
/** Validity of a new broker certificate, days. */
export const DEV_BROKER_DAYS = 397;
/** A certificate with less than this many days left is issued again at start, days. */
export const RENEW_BEFORE_DAYS = 30;

const DAY_MS = 86_400_000;
/** ECDSA P-256 with SHA-256 (RFC 5480): small keys, supported by mbedTLS on the Wi-Fi modules. */
const EC_P256 = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

/** What a TLS listener serves and what its clients pin. */
export interface BrokerTls {
  /** The broker certificate (PEM; the leaf, followed by intermediates for an operator chain). */
  cert: string;
  /** Its private key (PEM). */
  key: string;
  /** The CA devices pin (PEM), or null when the operator gave none (a public CA devices already trust). */
  ca: string | null;
  /** Files on disk: the broker certificate, its key and the CA (null when none). */
  files: { cert: string; key: string; ca: string | null };
  /** `development`: the CA in DATA_DIR/tls; `operator`: MQTT_TLS_CERT and MQTT_TLS_KEY. */
  source: "development" | "operator";
}

/** One spelling per name: host names in lower case, IPv6 addresses compressed (Node prints them expanded). */
function canonicalName(name: string): string {
  if (isIP(name) === 6) return new URL(`http://[${name}]`).hostname.slice(1, -1);
  return isIP(name) ? name : name.toLowerCase();
}

/** The names a broker certificate answers for: localhost, 127.0.0.1, ::1 and `hosts` (names or addresses). */
export function brokerNames(hosts: readonly string[]): string[] {
  const names = ["localhost", "127.0.0.1", "::1", ...hosts]
    .map((h) => h.trim().replace(/^\[(.*)\]$/, "$1"))
    .filter((h) => h !== "" && h !== "0.0.0.0" && h !== "::");
  return [...new Set(names.map(canonicalName))];
}

function pem(der: ArrayBuffer, label: string): string {
  return `${x509.PemConverter.encode(der, label)}\n`;
}

function serial(): string {
  // A positive 128-bit serial (RFC 5280 §4.1.2.2: at most 20 octets, positive).
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString("hex");
}

/** A Web Crypto key, named through the global value so the type is the same with or without the DOM library. */
type WebKey = InstanceType<typeof CryptoKey>;

async function newKeys(): Promise<{ publicKey: WebKey; privateKey: WebKey }> {
  return (await globalThis.crypto.subtle.generateKey(EC_P256, true, ["sign", "verify"])) as {
    publicKey: WebKey;
    privateKey: WebKey;
  };
}

async function exportKey(key: WebKey): Promise<string> {
  return pem(await globalThis.crypto.subtle.exportKey("pkcs8", key), "PRIVATE KEY");
}

async function importKey(text: string): Promise<WebKey> {
  const der = x509.PemConverter.decodeFirst(text);
  return globalThis.crypto.subtle.importKey("pkcs8", der, EC_P256, false, ["sign"]);
}

/** Writes `text` to `file` mode 0600 through a temporary file and a rename, so a reader never sees half a file. */
function writePrivate(file: string, text: string): void {
  const temporary = `${file}.${randomUUID().slice(0, 8)}.tmp`;
  fs.writeFileSync(temporary, text, { mode: PRIVATE_FILE_MODE });
  fs.renameSync(temporary, file);
}

function readIfPresent(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** True when `cert` is valid for more than {@link RENEW_BEFORE_DAYS} more days at `now`. */
function lastsLongEnough(cert: X509Certificate, now: Date): boolean {
  return new Date(cert.validTo).getTime() - now.getTime() > RENEW_BEFORE_DAYS * DAY_MS;
}

/** True when the private key `keyPem` belongs to `cert`. */
function keyMatches(cert: X509Certificate, keyPem: string): boolean {
  try {
    const fromKey = createPublicKey(keyPem).export({ type: "spki", format: "der" });
    return Buffer.compare(fromKey, cert.publicKey.export({ type: "spki", format: "der" }) as Buffer) === 0;
  } catch {
    return false;
  }
}

/** The DNS names and IP addresses of a certificate's subjectAltName (Node's text form "DNS:a, IP Address:b"). */
export function subjectAltNames(cert: X509Certificate): string[] {
  return (cert.subjectAltName ?? "")
    .split(", ")
    .map((entry) => entry.replace(/^(DNS|IP Address):/, ""))
    .filter((entry) => entry !== "")
    .map(canonicalName);
}

async function createCa(dir: string, now: Date): Promise<{ cert: X509Certificate; key: string }> {
  const keys = await newKeys();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=AquaPilot development device CA ${randomUUID().slice(0, 8)}, O=AquaPilot development`,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + DEV_CA_DAYS * DAY_MS),
    keys,
    signingAlgorithm: EC_P256,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const key = await exportKey(keys.privateKey);
  const certPem = pem(ca.rawData, "CERTIFICATE");
  // The key first: a CA certificate on disk always has its key beside it.
  writePrivate(path.join(dir, DEV_CA_KEY_FILE), key);
  writePrivate(path.join(dir, DEV_CA_CERT_FILE), certPem);
  return { cert: new X509Certificate(certPem), key };
}

async function issueBroker(
  dir: string,
  ca: { cert: X509Certificate; key: string },
  names: string[],
  now: Date,
): Promise<void> {
  const keys = await newKeys();
  const caCert = new x509.X509Certificate(ca.cert.raw);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: "CN=AquaPilot development MQTT broker",
    issuer: caCert.subject,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(Math.min(now.getTime() + DEV_BROKER_DAYS * DAY_MS, new Date(ca.cert.validTo).getTime())),
    publicKey: keys.publicKey,
    signingKey: await importKey(ca.key),
    signingAlgorithm: EC_P256,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        names.map((n) => (isIP(n) ? { type: "ip" as const, value: n } : { type: "dns" as const, value: n })),
      ),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  writePrivate(path.join(dir, DEV_BROKER_KEY_FILE), await exportKey(keys.privateKey));
  writePrivate(path.join(dir, DEV_BROKER_CERT_FILE), pem(leaf.rawData, "CERTIFICATE"));
}

/**
 * The development CA of `dataDir` and a broker certificate issued from it, created on first use in
 * `DATA_DIR/tls/` (ca.key, ca.crt, broker.key, broker.crt; every file mode 0600, the folder 0700) and reused after.
 * The CA is created again when it is missing, unreadable or has less than {@link RENEW_BEFORE_DAYS} days left; the
 * broker certificate (EC P-256, serverAuth, {@link DEV_BROKER_DAYS} days) is issued again when it is missing, was not
 * issued by this CA, does not match its key, has less than {@link RENEW_BEFORE_DAYS} days left, or lacks one of
 * {@link brokerNames}(`hosts`) in its subjectAltName. Keys are never logged or returned anywhere but here.
 * @param hosts host names and addresses the broker is reached at besides localhost, 127.0.0.1 and ::1 (the
 *   configured public host, the listening address).
 * @throws when DATA_DIR cannot be written.
 */
export async function ensureDevelopmentTls(
  dataDir: string,
  hosts: readonly string[] = [],
  now: Date = new Date(),
): Promise<BrokerTls> {
  const dir = path.join(dataDir, DEV_TLS_DIR);
  ensurePrivateDir(dir);
  const names = brokerNames(hosts);
  const files = {
    cert: path.join(dir, DEV_BROKER_CERT_FILE),
    key: path.join(dir, DEV_BROKER_KEY_FILE),
    ca: path.join(dir, DEV_CA_CERT_FILE),
  };
  // Two processes sharing DATA_DIR may start together: whichever wrote last wins, and a pair found mismatched (one
  // process's key beside the other's certificate) is issued again.
  for (let attempt = 0; ; attempt++) {
    let ca: { cert: X509Certificate; key: string } | null = null;
    const caPem = readIfPresent(files.ca);
    const caKey = readIfPresent(path.join(dir, DEV_CA_KEY_FILE));
    if (caPem && caKey) {
      try {
        const cert = new X509Certificate(caPem);
        if (cert.ca && keyMatches(cert, caKey) && lastsLongEnough(cert, now)) ca = { cert, key: caKey };
      } catch {
        ca = null;
      }
    }
    ca ??= await createCa(dir, now);
    const leafPem = readIfPresent(files.cert);
    const leafKey = readIfPresent(files.key);
    if (leafPem && leafKey) {
      let reusable = false;
      try {
        const leaf = new X509Certificate(leafPem);
        const sans = subjectAltNames(leaf);
        reusable =
          leaf.verify(ca.cert.publicKey) &&
          keyMatches(leaf, leafKey) &&
          lastsLongEnough(leaf, now) &&
          names.every((n) => sans.includes(n));
      } catch {
        // Not a certificate: issued again below.
      }
      if (reusable) return { cert: leafPem, key: leafKey, ca: ca.cert.toString(), files, source: "development" };
    }
    if (attempt >= 3) throw new Error(`could not settle the development TLS files in ${dir}`);
    await issueBroker(dir, ca, names, now);
  }
}

/**
 * The operator's broker certificate: MQTT_TLS_CERT (PEM, the leaf first, then intermediates), MQTT_TLS_KEY (its PEM
 * key) and optionally MQTT_TLS_CA (the CA devices pin, also trusted by the gateway's own connection), read from disk
 * and checked to make a TLS context (the key must belong to the certificate).
 * @throws ConfigError naming the variable when a file cannot be read, is not PEM, or the key does not match; the key's
 *   content is never repeated.
 */
export function loadOperatorTls(paths: { cert: string; key: string; ca?: string }): BrokerTls {
  const read = (name: string, file: string): string => {
    try {
      return fs.readFileSync(file, "utf8");
    } catch (err) {
      throw new ConfigError([`${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? "error"})`]);
    }
  };
  const cert = read("MQTT_TLS_CERT", paths.cert);
  const key = read("MQTT_TLS_KEY", paths.key);
  const ca = paths.ca ? read("MQTT_TLS_CA", paths.ca) : null;
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
  } catch {
    throw new ConfigError([`MQTT_TLS_CERT: ${paths.cert} is not a PEM certificate`]);
  }
  if (!keyMatches(leaf, key)) {
    throw new ConfigError([`MQTT_TLS_KEY: ${paths.key} is not the private key of MQTT_TLS_CERT (${paths.cert})`]);
  }
  if (ca !== null) {
    try {
      tls.createSecureContext({ ca });
      new X509Certificate(ca);
    } catch {
      throw new ConfigError([`MQTT_TLS_CA: ${paths.ca} is not a PEM certificate`]);
    }
  }
  return { cert, key, ca, files: { cert: paths.cert, key: paths.key, ca: paths.ca ?? null }, source: "operator" };
}
