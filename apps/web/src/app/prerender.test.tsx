import { afterEach, describe, expect, it, vi } from "vitest";
import { renderLoginScreen } from "./prerender.tsx";

describe("the build's prerendered Login (issue 12)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("renders the Login screen and leaves no timer behind (a pending one kept `vite build` alive for minutes)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "clearTimeout", "clearInterval"] });
    const markup = await renderLoginScreen("en");
    expect(markup).toContain('data-testid="login-screen"');
    expect(vi.getTimerCount()).toBe(0);
  });
});
