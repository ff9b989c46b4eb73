/**
 * The files module's public face (issue 13, decision 40): what the rest of the server may use of
 * it. Everything else in this folder is the module's own.
 */
export { filesMessages } from "./messages.ts";
export { fileRoutes } from "./routes.ts";
export {
  type ImageExtension,
  isUploadPath,
  requireOwnUploads,
  sniffImage,
  UPLOADS_PREFIX,
  uploadsDir,
} from "./service.ts";
