/**
 * `npm run generate -w packages/contract`: writes src/routes.generated.ts and src/streams.generated.ts, the zod-free run-time table of every
 * endpoint that the web app imports through `@aquapilot/contract/wire` (issue 12). Run it after changing an
 * endpoint's method, path, query or body; src/routes.generated.test.ts fails while the file is stale.
 */
import { writeFileSync } from "node:fs";
import { generateRoutesModule, generateStreamsModule } from "../src/endpoints/to-wire.js";
import { deviceFlowStatisticsCsv, endpoints } from "../src/endpoints.js";

writeFileSync(new URL("../src/routes.generated.ts", import.meta.url), generateRoutesModule(endpoints));
writeFileSync(new URL("../src/streams.generated.ts", import.meta.url), generateStreamsModule({ deviceFlowStatisticsCsv }));
console.log(`wrote src/routes.generated.ts (${Object.keys(endpoints).length} endpoints) and src/streams.generated.ts`);
