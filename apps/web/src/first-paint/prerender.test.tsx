import { afterEach, describe, expect, it, vi } from "vitest";
import { renderDeviceFrame, renderLoginScreen } from "./prerender.tsx";

describe("the build's prerendered Login and Device frame", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("renders the Login screen and leaves no timer behind (a pending one kept `vite build` alive for minutes)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "clearTimeout", "clearInterval"] });
    const markup = await renderLoginScreen("en");
    expect(markup).toContain('data-testid="login-screen"');
    expect(vi.getTimerCount()).toBe(0);
  });

  it("renders the Device screen's frame in the route's frame, titled in the language asked for", async () => {
    const ru = await renderDeviceFrame("ru");
    expect(ru).toContain('data-route="Device"');
    expect(ru).toContain('data-testid="device-frame"');
    expect(ru).toContain("Устройство");
    const zh = await renderDeviceFrame("zh-Hans");
    expect(zh).toContain("盐将在此期限内用完时发送消息，每次加盐后一次");
    expect(zh).not.toContain("Устройство");
  });
});
