/**
 * Simulated water softeners for AquaPilot: a control-valve model ({@link SoftenerModel}), a device speaking the
 * device protocol v1 over MQTT ({@link SimulatedDevice}), fleets of them ({@link createFleet}), and a brand-new
 * softener in network-setup mode ({@link SetupModeDevice}) with its Bluetooth provisioning service
 * ({@link BlsyncGattModel}) and Chromium's Bluetooth emulation ({@link attachBluetoothPeripheral}).
 * See docs/device-protocol.md and docs/device-sim.md.
 */
export { brokerTlsOptions, pinBrokerCa, pinnedBrokerCas } from "./broker-trust.ts";
export { type CommandOutcome, SimulatedDevice, type SimulatedDeviceOptions } from "./device.ts";
export { FACTORY_DEVICES_PATH, registerAtFactory } from "./factory.ts";
export {
  createFleet,
  type DeviceIdentity,
  type Fleet,
  type FleetDeviceSpec,
  type FleetOptions,
  generateDeviceIdentity,
} from "./fleet.ts";
export { type FleetFile, readFleetFile, writeFleetFile } from "./fleet-file.ts";
export {
  type CycleKind,
  type CycleReason,
  FAMILY_PROFILE,
  type FamilyOptions,
  SoftenerError,
  type SoftenerEvent,
  SoftenerModel,
  type SoftenerModelOptions,
  type SoftenerSnapshot,
} from "./model.ts";
export { nextFirmwareVersion, type OtaPlan, planOta } from "./ota.ts";
export { type OutboxReport, ReportOutbox, type ReportOutboxOptions } from "./outbox.ts";
export { Rng, seedFrom } from "./random.ts";
export {
  mqttTimerOf,
  type ScheduledTask,
  type Scheduler,
  SharedScheduler,
  type SharedSchedulerOptions,
} from "./scheduler.ts";
export {
  DEFAULT_EXCHANGE_CAPACITY_G_PER_L,
  DEFAULT_SETTINGS,
  exchangeCapacityL,
  parseHhmm,
  SETTING_NAMES,
  type SoftenerSettings,
  validateSettings,
} from "./settings.ts";
export { DEFAULT_AP_UDP_PORT, DEFAULT_LAN_UDP_PORT } from "./setup/access-point.ts";
export {
  type AttachBluetoothOptions,
  attachBluetoothPeripheral,
  type BluetoothAdapterState,
  type BluetoothPeripheral,
  type CdpSession,
  HCI_CONNECTION_FAILED,
  isBluetoothEmulationAlive,
  setBluetoothAdapterState,
} from "./setup/cdp-peripheral.ts";
export {
  AttError,
  BLSYNC_VERSION_ANSWER,
  BlsyncGattModel,
  type BlsyncModule,
  bluetoothAddressOf,
  type GattReadResult,
  type GattWriteResult,
} from "./setup/gatt-model.ts";
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
} from "./setup/neighbourhood.ts";
export { type ModuleFirmware, SetupModeDevice, type SetupModeDeviceOptions } from "./setup/setup-device.ts";
export {
  SETUP_FAILURES,
  type SetupFailureInfo,
  type SetupFailureName,
  type SetupGeneration,
  setupFailureInfo,
} from "./setup/setup-failures.ts";
export {
  describeSetupStatus,
  SETUP_FAILURE_TEXTS,
  SETUP_STATE_NAMES,
  type SetupStatus,
} from "./setup/setup-status.ts";
export { DEFAULT_SETUP_TIMING, type SetupTiming } from "./setup/setup-timing.ts";
