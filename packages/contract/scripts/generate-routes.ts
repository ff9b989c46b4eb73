/**
 * `npm run generate -w packages/contract`: writes src/routes.generated.ts, the zod-free run-time table of every
 * endpoint that the web app imports through `@aquapilot/contract/wire`, so its first screen loads no schema. Run it
 * after changing an endpoint's method, path, query or body; src/routes.generated.test.ts fails while the file is stale.
 */
import { writeFileSync } from "node:fs";
import { generateRoutesModule } from "../src/endpoints/to-wire.ts";
import { deviceFlowStatisticsCsv, endpoints } from "../src/endpoints.ts";

const target = new URL("../src/routes.generated.ts", import.meta.url);
writeFileSync(target, generateRoutesModule(endpoints, { deviceFlowStatisticsCsv }));
console.log(`wrote ${target.pathname}: ${Object.keys(endpoints).length} endpoints`);
