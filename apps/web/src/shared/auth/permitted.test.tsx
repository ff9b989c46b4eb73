import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setItem } from "../storage/index.ts";
import { Permitted, usePermission } from "./permitted.tsx";
import { signOut } from "./session.ts";

beforeEach(() => {
  localStorage.clear();
  signOut();
});
afterEach(cleanup);

function Probe() {
  const { can, access } = usePermission();
  return (
    <div data-testid="probe">{`${can("Message")}|${access({ permission: "AfterSale", whenDenied: "disable" })}`}</div>
  );
}

describe("usePermission and <Permitted> (spec §6)", () => {
  it("render by the signed-in user's grantedPolicies and follow changes", async () => {
    setItem("loginInfo", { userName: "ana", grantedPolicies: ["Message"], token: "A" });
    render(
      <>
        <Probe />
        <Permitted requirement="Message">
          <span data-testid="messages">messages</span>
        </Permitted>
        <Permitted requirement="AfterSale" fallback={<span data-testid="fallback">no</span>}>
          <span data-testid="after-sale">after-sale</span>
        </Permitted>
        <Permitted requirement={{ permission: "AfterSale", whenDenied: "disable" }}>
          {({ disabled }) => <button type="button" disabled={disabled} data-testid="shares" />}
        </Permitted>
      </>,
    );
    expect(screen.getByTestId("probe").textContent).toBe("true|disabled");
    expect(screen.queryByTestId("messages")).not.toBeNull();
    expect(screen.queryByTestId("after-sale")).toBeNull();
    expect(screen.queryByTestId("fallback")).not.toBeNull();
    expect((screen.getByTestId("shares") as HTMLButtonElement).disabled).toBe(true);

    // signing out notifies: nothing is granted any more
    act(() => signOut());
    expect(screen.getByTestId("probe").textContent).toBe("false|disabled");
    expect(screen.queryByTestId("messages")).toBeNull();
  });

  it("a master sees everything", () => {
    setItem("loginInfo", { userName: "boss", grantedPolicies: ["master"], token: "A" });
    render(
      <Permitted requirement={{ allOf: ["AfterSale", "Device.Setting"] }}>
        <span data-testid="all">all</span>
      </Permitted>,
    );
    expect(screen.queryByTestId("all")).not.toBeNull();
  });
});
