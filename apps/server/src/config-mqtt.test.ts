import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";
import { defaultGatewayClientId } from "./system.ts";

const URL_WITH_PASSWORD = "mqtt://aquapilot-gateway:s3cret-Gateway-Pass@127.0.0.1:1883";

/** The external-broker settings (docs/deploy.md "External MQTT broker (Mosquitto)"). */
describe("external MQTT broker settings", () => {
  it("defaults: plain broker, assigned subscriptions, no gateway client id", () => {
    const config = loadConfig({});
    expect(config.MQTT_BROKER_KIND).toBe("plain");
    expect(config.MQTT_SUBSCRIPTIONS).toBe("assigned");
    expect(config.GATEWAY_CLIENT_ID).toBeUndefined();
  });

  it("reads mosquitto-dynsec with MQTT_URL, plain subscriptions and a client id", () => {
    const config = loadConfig({
      MQTT_URL: URL_WITH_PASSWORD,
      MQTT_BROKER_KIND: "mosquitto-dynsec",
      MQTT_SUBSCRIPTIONS: "plain",
      GATEWAY_CLIENT_ID: "aquapilot-gw-a",
    });
    expect(config).toMatchObject({
      MQTT_BROKER_KIND: "mosquitto-dynsec",
      MQTT_SUBSCRIPTIONS: "plain",
      GATEWAY_CLIENT_ID: "aquapilot-gw-a",
    });
  });

  it("refuses the replaced MQTT_SHARED_SUBSCRIPTIONS, naming what to set instead", () => {
    for (const value of ["true", "false"]) {
      let error: unknown;
      try {
        loadConfig({ MQTT_URL: URL_WITH_PASSWORD, MQTT_SHARED_SUBSCRIPTIONS: value });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^MQTT_SHARED_SUBSCRIPTIONS: .*MQTT_SUBSCRIPTIONS/),
      ]);
      expect((error as Error).message).not.toContain("s3cret-Gateway-Pass");
    }
    expect(loadConfig({ MQTT_SHARED_SUBSCRIPTIONS: " " }).MQTT_SUBSCRIPTIONS).toBe("assigned"); // empty counts as unset
  });

  it("refuses mosquitto-dynsec without MQTT_URL, an unknown kind and a client id with odd characters — never showing the password", () => {
    expect(() => loadConfig({ MQTT_BROKER_KIND: "mosquitto-dynsec" })).toThrow(/MQTT_BROKER_KIND: .*needs MQTT_URL/);
    for (const env of [
      { MQTT_URL: URL_WITH_PASSWORD, MQTT_BROKER_KIND: "emqx" },
      { MQTT_URL: URL_WITH_PASSWORD, GATEWAY_CLIENT_ID: "gw with spaces" },
      { MQTT_URL: URL_WITH_PASSWORD, MQTT_SUBSCRIPTIONS: "yes" },
    ]) {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).not.toContain("s3cret-Gateway-Pass");
    }
  });

  it("derives a stable gateway client id from host and port (random only for port 0)", () => {
    expect(defaultGatewayClientId(8080, "web-1.example")).toBe("aquapilot-gw-web-1.example-8080");
    expect(defaultGatewayClientId(8080, "web-1.example")).toBe(defaultGatewayClientId(8080, "web-1.example"));
    expect(defaultGatewayClientId(8081, "web-1.example")).not.toBe(defaultGatewayClientId(8080, "web-1.example"));
    expect(defaultGatewayClientId(8080, "bad host/name")).toBe("aquapilot-gw-badhostname-8080");
    expect(defaultGatewayClientId(0, "h")).not.toBe(defaultGatewayClientId(0, "h"));
  });
});
