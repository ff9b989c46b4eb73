/**
 * The firmware module's public face: what the rest of the server may use of it, and the only file
 * of this folder that code outside it may import (npm run lint:boundaries). Everything else here is the module's own.
 */
export { firmwareMessages } from "./messages.ts";
export { firmwareDownloadUrl, firmwareModule } from "./routes.ts";
export {
  compareVersions,
  type FirmwareImage,
  findFirmwareImage,
  firmwareBaseUrl,
  latestFirmwareImage,
  listFirmware,
  trustedFirmwareKeys,
  uploadFirmware,
} from "./service.ts";
export {
  DOWNLOAD_KEY_FILE,
  DOWNLOAD_TOKEN_SECONDS,
  downloadToken,
  loadOrCreateDevSigningKey,
  rawPublicKeyBase64,
  readSigningKey,
  signFirmwareDigest,
} from "./signing.ts";
