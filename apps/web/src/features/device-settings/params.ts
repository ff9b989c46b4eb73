/** Navigation params of the device screens (spec §2: JSON in the `params` query value). */
export interface DeviceParams {
  deviceId: string;
  familyId?: string;
}

/** Navigation params of DeviceSort (the household whose devices are sorted). */
export interface DeviceSortParams {
  familyId?: string;
}
