/**
 * `npm run generate:errors -w apps/server`: writes docs/errors.md, the one table of the domain error codes with their
 * HTTP statuses and every message key the server raises with each (src/http/errors-doc.ts). Run it
 * after adding or changing a thrown error; src/http/errors-doc.test.ts fails while the file is stale.
 */
import { writeFileSync } from "node:fs";
import { ERRORS_DOC, errorsDoc } from "../src/http/errors-doc.ts";
import { MESSAGES } from "../src/http/messages.ts";
// Every module's part of the catalogue, registered on load (the English texts of their keys).
import "../test/catalogue.ts";

writeFileSync(ERRORS_DOC, errorsDoc(MESSAGES.en));
console.log(`wrote ${ERRORS_DOC}`);
