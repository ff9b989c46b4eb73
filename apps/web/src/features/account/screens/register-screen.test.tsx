import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { RegisterScreen } from "./register-screen.tsx";

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

function fillForm() {
  type("register-account", "ann@example.com");
  type("register-password", "secret1");
  type("register-confirm-password", "secret1");
  type("register-code", "123456");
}

describe("Register screen", () => {
  it("shows the form and checks each field before calling the server", async () => {
    const view = await renderScreen(<RegisterScreen />, { route: "/Register", session: null });
    expect(screen.getByText("Create account")).toBeTruthy();
    fireEvent.click(screen.getByTestId("register-submit"));
    await view.findToast("Please enter your e-mail or phone number");
    fillForm();
    fireEvent.click(screen.getByTestId("register-submit"));
    await view.findToast("Please read and accept the privacy policy");
    expect(view.api.callsTo("register")).toHaveLength(0);
  });

  it("registers, signs in and goes home", async () => {
    const view = await renderScreen(<RegisterScreen />, {
      session: null,
      api: {
        register: null,
        applicationConfiguration: { auth: { grantedPolicies: {} }, currentUser: { userName: "ann" } },
      },
      raw: {
        "POST /connect/token": () => ({
          access_token: "A",
          refresh_token: "R",
          expires_in: 3600,
          token_type: "Bearer",
        }),
      },
    });
    fillForm();
    fireEvent.click(screen.getByRole("checkbox"));
    fireEvent.click(screen.getByTestId("register-submit"));
    await view.findToast("Registration successful");
    expect(view.api.lastCall("register").query).toMatchObject({
      bindType: "1",
      account: "ann@example.com",
      password: "secret1",
      code: "123456",
    });
    expect(view.navigatedTo()).toBe("/index/home");
  });

  it("signed in, opens the route asked for while signed out (handed on by Login)", async () => {
    const wanted = `/FamilyDetails?${new URLSearchParams({ params: JSON.stringify({ familyId: "f1" }) })}`;
    const view = await renderScreen(<RegisterScreen />, {
      route: routeOf("/Register", { returnTo: wanted }),
      session: null,
      api: {
        register: null,
        applicationConfiguration: { auth: { grantedPolicies: {} }, currentUser: { userName: "ann" } },
      },
      raw: {
        "POST /connect/token": () => ({
          access_token: "A",
          refresh_token: "R",
          expires_in: 3600,
          token_type: "Bearer",
        }),
      },
    });
    fillForm();
    fireEvent.click(screen.getByRole("checkbox"));
    fireEvent.click(screen.getByTestId("register-submit"));
    await view.findToast("Registration successful");
    expect(view.navigatedTo()).toBe(wanted);
  });

  it("shows the server's refusal", async () => {
    const view = await renderScreen(<RegisterScreen />, {
      session: null,
      api: { register: () => fail(400, "This e-mail is already registered") },
    });
    fillForm();
    fireEvent.click(screen.getByRole("checkbox"));
    fireEvent.click(screen.getByTestId("register-submit"));
    await view.findToast("This e-mail is already registered");
    expect(view.navigatedTo()).toBeNull();
  });
});
