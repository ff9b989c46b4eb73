import type { QueryClient } from "@tanstack/react-query";
import { bindDevice } from "../../shared/api/bind-device.ts";
import { errorMessage } from "../../shared/api/errors.ts";
import { queryKeys } from "../../shared/api/query-keys.ts";
import type { WifiBridge } from "../../shared/bridge/wifi-bridge.ts";
import { i18n } from "../../shared/i18n/index.ts";
import { createSetupTicket, waitForSetupTicket } from "./api/setup-ticket.ts";
import { type ChosenModule, createBleClientTransport } from "./ble/ble-transport.ts";
import { BleSetupRun } from "./logic/ble-flow.ts";
import type { BindDevice } from "./logic/flow-kit.ts";
import { SmartSetupRun, type SmartSetupTicket } from "./logic/smart-flow.ts";
import { newSessionId, type SetupSession, saveSession } from "./setup-session.ts";

/**
 * The binding step of both flows (spec §7 device `POST /`): binds the device to `familyId` with the pairing code
 * "MAC:TOKEN" the module handed over, then refreshes the household lists so Home shows it. Rejects with an Error
 * carrying the server's message (spec §8), shown on the progress page.
 */
export function bindToFamily(familyId: string, client: QueryClient): BindDevice {
  return async (code) => {
    try {
      const device = await bindDevice(familyId, { code }, { loading: false });
      void Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.familyDevicesAll }),
        client.invalidateQueries({ queryKey: queryKeys.families }),
      ]);
      return { id: device.id, familyId: device.familyId, name: device.name, mac: device.mac };
    } catch (err) {
      throw new Error(errorMessage(err, i18n.t("errors.requestFailed")));
    }
  };
}

/** What both starters need: where the device goes and the Wi-Fi it gets. */
interface StartInput {
  familyId: string;
  ssid: string;
  password: string;
  client: QueryClient;
}

/** Keeps a started run as a session under a fresh id, starts it, and answers the session. */
function keep(session: Omit<SetupSession, "id">): SetupSession {
  const kept = { ...session, id: newSessionId() } as SetupSession;
  saveSession(kept);
  void kept.run.start();
  return kept;
}

/** Starts a Bluetooth setup with the chosen module and keeps it in the session store; answers the session. */
export function startBleSetup(input: StartInput & { module: ChosenModule }): SetupSession {
  const run = new BleSetupRun({
    transport: createBleClientTransport(input.module),
    ssid: input.ssid,
    password: input.password,
    bind: bindToFamily(input.familyId, input.client),
    setupTicket: setupTicketsFor(input.familyId),
  });
  return keep({ mode: "ble", run, familyId: input.familyId, ssid: input.ssid, password: input.password });
}

/**
 * The cloud's setup tickets for household `familyId` as both flows use them (api/setup-ticket.ts;
 * docs/device-protocol.md §13.3–§13.4): one ticket per run, and the wait for the module's activation with it.
 */
function setupTicketsFor(familyId: string): SmartSetupTicket {
  return {
    create: () => createSetupTicket(familyId),
    wait: (ticket, { signal, timeoutMs }) => waitForSetupTicket(ticket, { signal, timeoutMs }),
  };
}

/** Starts an access-point setup over the phone's Wi-Fi bridge and keeps it in the session store. */
export function startSmartSetup(input: StartInput & { bridge: WifiBridge }): SetupSession {
  const run = new SmartSetupRun({
    bridge: input.bridge,
    ssid: input.ssid,
    password: input.password,
    bind: bindToFamily(input.familyId, input.client),
    setupTicket: setupTicketsFor(input.familyId),
  });
  return keep({ mode: "ap", run, familyId: input.familyId, ssid: input.ssid, password: input.password });
}
