import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen } from "../../../shared/testing/render.tsx";
import { AboutScreen } from "./about-screen.tsx";

const config = {
  customerServicePhone: "400-800-1234",
  privacyPolicyArticleId: "a-privacy",
  userAgreementArticleId: null,
  mapType: 4,
  mapKeys: {},
};

describe("About screen", () => {
  it("shows the versions and the configured service phone, and opens the privacy policy", async () => {
    const view = await renderScreen(<AboutScreen />, { route: "/About", api: { appConfigSetting: config } });
    expect(screen.getByTestId("about-version").textContent).toMatch(/^Version \S+/);
    expect(screen.getByTestId("about-web-version").textContent).not.toBe("");
    await waitFor(() =>
      expect(screen.getByTestId("about-service-phone").textContent).toContain("Customer service 400-800-1234"),
    );
    expect(screen.getByTestId("about-agreement").className).toContain("disabled");
    fireEvent.click(screen.getByTestId("about-privacy"));
    expect(view.navigatedParams()).toEqual({ id: "a-privacy" });
  });

  it("falls back to the spec's phone and disabled articles when the configuration fails", async () => {
    const view = await renderScreen(<AboutScreen />, { api: {} });
    await waitFor(() => expect(view.api.unhandled.map((c) => c.endpoint)).toContain("appConfigSetting"));
    expect(screen.getByTestId("about-service-phone").textContent).toContain("Customer service 114");
    expect(screen.getByTestId("about-privacy").className).toContain("disabled");
  });
});
