import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { getItem } from "../../../shared/storage/index.ts";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { LoginScreen } from "./login-screen.tsx";

const token = () => ({ access_token: "A1", refresh_token: "R1", expires_in: 3600, token_type: "Bearer" });
const configuration = {
  currentUser: { isAuthenticated: true, id: "u1", userName: "ann", name: null, email: null, phoneNumber: null },
  auth: { grantedPolicies: { "Device.View": true } },
  localization: { currentCulture: { name: "en" } },
};

function fill(account: string, password: string) {
  fireEvent.change(screen.getByTestId("login-account"), { target: { value: account } });
  fireEvent.change(screen.getByTestId("login-password"), { target: { value: password } });
  fireEvent.click(screen.getByTestId("login-submit"));
}

describe("Login screen", () => {
  it("shows the form with its links", async () => {
    const view = await renderScreen(<LoginScreen />, { route: "/login", session: null });
    expect(screen.getByText("Welcome back")).toBeTruthy();
    fireEvent.click(screen.getByText("Forgot password?"));
    expect(view.navigatedTo()).toBe("/FindPassword");
  });

  it("asks for both fields before calling the server", async () => {
    const view = await renderScreen(<LoginScreen />, { session: null });
    fill("ann", "");
    await view.findToast("Please enter username and password");
    expect(view.api.calls.filter((c) => c.path === "/connect/token")).toHaveLength(0);
  });

  it("signs in, stores the session with its permissions and goes home", async () => {
    const view = await renderScreen(<LoginScreen />, {
      session: null,
      raw: { "POST /connect/token": token },
      api: { applicationConfiguration: configuration },
    });
    fill(" ann ", "secret1");
    await view.findToast("Signed in");
    expect(view.navigatedTo()).toBe("/index/home");
    expect(getItem("token")?.accessToken).toBe("A1");
    expect(getItem("loginInfo")?.grantedPolicies).toEqual(["Device.View"]);
    const sent = view.api.calls.find((c) => c.path === "/connect/token");
    expect(sent?.body).toMatchObject({ grant_type: "password", username: "ann", password: "secret1" });
  });

  it("opens the route asked for while signed out, with its query, and hands it on to Register and FindPassword", async () => {
    const wanted = `/Device?${new URLSearchParams({ params: JSON.stringify({ deviceId: "d1" }) })}`;
    const view = await renderScreen(<LoginScreen />, {
      route: routeOf("/login", { returnTo: wanted }),
      session: null,
      raw: { "POST /connect/token": token },
      api: { applicationConfiguration: configuration },
    });
    fireEvent.click(screen.getByText("Forgot password?"));
    expect(view.navigatedParams()).toEqual({ returnTo: wanted });
    fill("ann", "secret1");
    await view.findToast("Signed in");
    expect(view.navigatedTo()).toBe(wanted);
  });

  it("never follows a return value outside the app: home instead", async () => {
    const view = await renderScreen(<LoginScreen />, {
      route: routeOf("/login", { returnTo: "https://evil.example/Device" }),
      session: null,
      raw: { "POST /connect/token": token },
      api: { applicationConfiguration: configuration },
    });
    fill("ann", "secret1");
    await view.findToast("Signed in");
    expect(view.navigatedTo()).toBe("/index/home");
  });

  it("says verification failed on wrong credentials", async () => {
    const view = await renderScreen(<LoginScreen />, {
      session: null,
      raw: { "POST /connect/token": () => fail(400, "invalid username or password", "invalid_grant") },
    });
    fill("ann", "wrong12");
    await view.findToast("Verification failed");
    expect(view.navigatedTo()).toBeNull();
  });
});
