/**
 * Simulated water softeners for AquaPilot: a control-valve model ({@link SoftenerModel}), a device speaking the
 * device protocol v1 over MQTT ({@link SimulatedDevice}) and fleets of them ({@link createFleet}).
 * See docs/device-protocol.md.
 */
export { type CommandOutcome, SimulatedDevice, type SimulatedDeviceOptions } from "./device.js";
export {
  createFleet,
  type DeviceIdentity,
  type Fleet,
  type FleetDeviceSpec,
  type FleetOptions,
  generateDeviceIdentity,
} from "./fleet.js";
export { type FleetFile, readFleetFile, writeFleetFile } from "./fleet-file.js";
export {
  type CycleKind,
  type CycleReason,
  HOUSEHOLD_PROFILE,
  type HouseholdOptions,
  SoftenerError,
  type SoftenerEvent,
  SoftenerModel,
  type SoftenerModelOptions,
  type SoftenerSnapshot,
} from "./model.js";
export { nextFirmwareVersion, type OtaPlan, planOta } from "./ota.js";
export { Rng, seedFrom } from "./random.js";
export {
  DEFAULT_EXCHANGE_CAPACITY_G_PER_L,
  DEFAULT_SETTINGS,
  exchangeCapacityL,
  parseHhmm,
  SETTING_NAMES,
  type SoftenerSettings,
  validateSettings,
} from "./settings.js";
export {
  addressOn,
  DEFAULT_PHONE_NETWORK,
  findNetwork,
  NEIGHBOURHOOD,
  SIM_HOST,
  SIM_NETMASK,
  type SimBand,
  type SimNetwork,
  sameSubnet,
} from "./setup/neighbourhood.js";
