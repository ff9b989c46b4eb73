/**
 * The import rules the project keeps (docs/adr/0004-import-boundaries-checked-by-a-tool.md), checked by
 * `npm run lint` (dependency-cruiser). Tests and test helpers are outside the rules: they may set up any layer. See
 * docs/architecture.md "Boundaries".
 * @type {import('dependency-cruiser').IConfiguration}
 */
const TESTS = "(\\.test\\.tsx?$|/test/|/testing\\.ts$|test-setup\\.ts$)";

module.exports = {
  forbidden: [
    {
      name: "web-feature-to-feature",
      comment:
        "A web feature never imports another feature: what two screens share moves to shared/, or the app layer (app/) composes them.",
      severity: "error",
      from: { path: "^apps/web/src/features/([^/]+)/", pathNot: TESTS },
      to: { path: "^apps/web/src/features/", pathNot: "^apps/web/src/features/$1/" },
    },
    {
      name: "web-shared-to-feature",
      comment:
        "shared/ is below the features: it never imports one (the app layer passes what it needs). It may import first-paint/, which is below the features too.",
      severity: "error",
      from: { path: "^apps/web/src/shared/", pathNot: TESTS },
      to: { path: "^apps/web/src/(features|app)/" },
    },
    {
      name: "web-first-paint-below-features",
      comment:
        "first-paint/ is below the features, as shared/ is: it never imports a feature or the app layer, except prerender.tsx and first-screen.ts, which put the first screens together from the route table, and the build's plugins (first-paint/build/), which run in Node.",
      severity: "error",
      from: {
        path: "^apps/web/src/first-paint/",
        pathNot: [
          TESTS,
          "^apps/web/src/first-paint/(prerender\\.tsx|first-screen\\.ts)$",
          "^apps/web/src/first-paint/build/",
        ],
      },
      to: { path: "^apps/web/src/(features|app)/" },
    },
    {
      name: "server-infrastructure-to-module",
      comment:
        "http, iot, realtime and db never import a module: they call modules through hooks or ports (ports.ts), as DeviceEventHook does.",
      severity: "error",
      from: { path: "^apps/server/src/(http|iot|realtime|db)/", pathNot: TESTS },
      to: { path: "^apps/server/src/modules/" },
    },
    {
      name: "server-module-through-index",
      comment: "A module is reached from outside only through its own index.ts.",
      severity: "error",
      from: { path: "^apps/server/src/", pathNot: [TESTS, "^apps/server/src/modules/([^/]+)/"] },
      to: { path: "^apps/server/src/modules/[^/]+/", pathNot: "^apps/server/src/modules/[^/]+/index\\.ts$" },
    },
    {
      name: "server-module-to-module-through-index",
      comment: "One module reaches another only through the other's index.ts.",
      severity: "error",
      from: { path: "^apps/server/src/modules/([^/]+)/", pathNot: TESTS },
      to: {
        path: "^apps/server/src/modules/[^/]+/",
        pathNot: ["^apps/server/src/modules/$1/", "^apps/server/src/modules/[^/]+/index\\.ts$"],
      },
    },
    {
      name: "server-production-to-development",
      comment:
        "The server's production code never loads the development launcher (apps/dev: demo owner, simulated fleet, factory route, bridge, /dev/outbox) or the simulator, so a production install needs neither; tests may.",
      severity: "error",
      from: { path: "^apps/server/", pathNot: TESTS },
      to: { path: ["^apps/dev/", "^apps/device-sim/", "(^|/)node_modules/(@aquapilot/(dev|device-sim)|playwright)"] },
    },
    {
      name: "no-circular",
      comment:
        "No import cycles outside tests, type-only ones included: a cycle of types means two files share a concept that belongs in one of them or in a leaf both import.",
      severity: "error",
      from: { pathNot: TESTS },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|www|\\.tmp|\\.node)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
