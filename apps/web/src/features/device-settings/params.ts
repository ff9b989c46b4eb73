/** Navigation params of the device screens (spec §2: JSON in the `params` query value). */
export interface DeviceParams {
  deviceId: string;
  familyId?: string;
}

/** Navigation params of DeviceSort and DeviceNetwork (the household whose devices are sorted or added to). */
export interface HouseholdParams {
  familyId?: string;
}

/** Navigation params of DeviceNetwork: the household, and a pairing code "MAC:SECRET" scanned on the home tab. */
export interface DeviceNetworkParams extends HouseholdParams {
  code?: string;
}
