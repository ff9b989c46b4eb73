import { type Endpoint, endpoints } from "@aquapilot/contract";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { registerEndpoint } from "./route.ts";
import { domainEventOf, ROUTE_EVENTS, routeEventOf } from "./route-events.ts";

const input = {
  query: {},
  body: undefined,
  params: undefined,
  userId: "u1",
  grant: { familyId: "f1", isAdmin: true, deviceId: "d1", mac: "0A0B0C0D0E0F" },
  result: null,
  db: undefined as never,
};

describe("route events: every mutating call declares its domain event", () => {
  it("every POST, PUT and DELETE of the contract has a declaration, and no GET has one", () => {
    const all = endpoints as Record<string, Endpoint>;
    for (const [name, ep] of Object.entries(all)) {
      const declared = ROUTE_EVENTS[name as keyof typeof endpoints];
      if (ep.method === "GET") expect(declared, name).toBeUndefined();
      else expect(declared, `${name} declares no domain event`).toBeDefined();
    }
    for (const name of Object.keys(ROUTE_EVENTS)) expect(all[name], name).toBeDefined();
  });

  it("a mutating endpoint without a declaration cannot be registered", () => {
    const undeclared: Endpoint = {
      method: "POST",
      path: "/api/test/undeclared",
      query: z.object({}),
      body: undefined,
      result: z.null(),
      access: { caller: "signedIn" },
      summary: "a call nobody declared",
    };
    expect(() => routeEventOf(undeclared)).toThrow(/declares no domain event/);
    expect(() => registerEndpoint(Fastify(), undeclared, async () => null)).toThrow(/declares no domain event/);
    expect(routeEventOf({ ...undeclared, method: "GET" })).toBeNull();
  });

  it("an event names its kind, its ids and the call that made it", async () => {
    const rename = routeEventOf(endpoints.updateDeviceName)!;
    expect(await domainEventOf(rename, input)).toEqual({
      kind: "device",
      familyId: "f1",
      deviceId: "d1",
      userId: null,
      cause: "updateDeviceName",
    });
    const read = routeEventOf(endpoints.setMessageAllRead)!;
    expect(await domainEventOf(read, input)).toEqual({
      kind: "message-read",
      familyId: null,
      deviceId: null,
      userId: "u1",
      cause: "setMessageAllRead",
    });
  });

  it("no event for a call that declares none, nor for a success that changed nothing (a share-code preview)", async () => {
    expect(await domainEventOf(routeEventOf(endpoints.queryDeviceInfo)!, input)).toBeNull();
    const preview = { ...input, result: { familyId: "f1", joined: false } };
    expect(await domainEventOf(routeEventOf(endpoints.analysisCode)!, preview)).toBeNull();
    const joined = { ...input, result: { familyId: "f1", joined: true } };
    expect(await domainEventOf(routeEventOf(endpoints.analysisCode)!, joined)).toMatchObject({
      kind: "member",
      familyId: "f1",
      userId: "u1",
    });
  });
});
