import fs from "node:fs";
import path from "node:path";

/**
 * DATA_DIR holds the SQLite database, the signing and code keys and the owners' uploads: only the server's own user
 * may read any of it. Folders are created 0700 and files 0600 (whatever the process's umask), so another account on
 * the machine reads neither the database nor a key (docs/security.md "Files").
 */

/** Mode of every folder the server creates under DATA_DIR (and DATA_DIR itself): owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of every file the server creates under DATA_DIR: owner read and write only. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and missing parents) owner-only, and narrows an existing `dir` to owner-only when this process owns
 * it. A folder owned by another account (a mount point prepared by an operator) is left as it is.
 * @throws when the folder cannot be created.
 */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  narrow(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes sure the file `file` exists owner-only before another library creates it with the umask's mode: created empty
 * at 0600 when missing, narrowed to 0600 when it exists and this process owns it. SQLite gives its -wal and -shm
 * files the database file's mode, so preparing the database file covers them.
 * @throws when the file cannot be created.
 */
export function ensurePrivateFile(file: string): void {
  ensurePrivateDir(path.dirname(file));
  fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
  narrow(file, PRIVATE_FILE_MODE);
}

/** chmod to `mode` when the path's mode is wider and this process owns it (else chmod would fail with EPERM). */
function narrow(target: string, mode: number): void {
  const stat = fs.statSync(target);
  if ((stat.mode & 0o777) === mode) return;
  if (typeof process.getuid === "function" && stat.uid !== process.getuid()) return;
  fs.chmodSync(target, mode);
}
