/** How long each step of the setup walk takes or may take (docs/device-sim.md §13.3), in real milliseconds. */

/**
 * Every delay of the setup walk, real milliseconds (docs/device-protocol.md §13.2 table and §13.3; defaults in
 * {@link DEFAULT_SETUP_TIMING}).
 */
export interface SetupTiming {
  /** From CONNECT (or the AP closing) to associated with an access point. */
  association: number;
  /** From CONNECT until "no access point answered" (failure 3). */
  apScanTimeout: number;
  /** From association until the router refuses a wrong key (failure 4). */
  passwordReject: number;
  /** From association with the right key until DHCP gave an address (state 3). */
  dhcp: number;
  /** How long the module waits for the router's DNS answer (failure 5). */
  dnsTimeout: number;
  /** How long each activation HTTP call may take before it counts as failed (failure 6 / 7). */
  httpTimeout: number;
  /** From MQTT CONNECT until "no server response" (failure 8). */
  connackTimeout: number;
  /** New generation: the whole connection must be made within this from CONNECT, else failure 2. */
  moduleDeadline: number;
  /** Old generation: the access point closes this long after acknowledging a join packet. */
  apCloseAfterAck: number;
  /** Old generation: after a failed join the module reopens its access point this long after the failure. */
  apReopenAfterFailedJoin: number;
}

/** The simulator's default timings (docs/device-protocol.md §13.2/§13.3), real ms. */
export const DEFAULT_SETUP_TIMING: Readonly<SetupTiming> = {
  association: 1500,
  apScanTimeout: 5000,
  passwordReject: 2500,
  dhcp: 500,
  dnsTimeout: 3000,
  httpTimeout: 10_000,
  connackTimeout: 8000,
  moduleDeadline: 45_000,
  apCloseAfterAck: 500,
  apReopenAfterFailedJoin: 10_000,
};
