/**
 * The development launcher's public face (docs/architecture.md "Development launcher"): the server with the demo
 * owner, the simulated softeners and the development-only routes, for `npm start`, the browser tests and the
 * benchmarks. Production never loads this package (apps/server/src/server.ts is the production entry).
 */
export { type DevBridgeOptions, devBridgeRoutes } from "./bridge/bridge.ts";
export { MODULE_ACCESS_POINT, SimulatedPhone } from "./bridge/phone.ts";
export { DEMO_ACCOUNT, type DemoDevice, seedDemoIfEmpty } from "./demo.ts";
export { factoryRoutes, ZFactoryDevice } from "./factory-route.ts";
export { registerDevOutboxRoute } from "./outbox-route.ts";
export { registerDevelopmentRoutes } from "./routes.ts";
export { type DevSystem, startDevSystem } from "./system.ts";
