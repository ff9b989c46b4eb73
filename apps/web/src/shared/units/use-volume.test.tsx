import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAppQueryClient } from "../api/query-client.ts";
import { i18n } from "../i18n/index.ts";
import { fakeApi } from "../testing/fake-api.ts";
import { unitPreferencesKey } from "./api/keys.ts";
import { useVolume } from "./volume.ts";

/** A units answer held until the test lets it go. */
function heldAnswer(volumeUnit: "L" | "gal") {
  let release = () => {};
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release: () => release(),
    handler: async () => {
      await answered;
      return { volumeUnit, hardnessUnit: "mgL" };
    },
  };
}

function renderVolume() {
  const errors: string[] = [];
  const queryClient = createAppQueryClient((text) => errors.push(text));
  let renders = 0;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
    </QueryClientProvider>
  );
  const hook = renderHook(
    () => {
      renders += 1;
      return useVolume();
    },
    { wrapper },
  );
  return { ...hook, queryClient, errors, renders: () => renders };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("useVolume (the owner's volume unit; redraws only for a new unit)", () => {
  it("shows litres at once and draws nothing again when the owner's stored unit is litres too", async () => {
    const answer = heldAnswer("L");
    const api = fakeApi({ getUnitPreferences: answer.handler });
    const { result, queryClient, errors, renders } = renderVolume();
    expect(result.current.unit).toBe("L");
    const first = result.current;
    const before = renders();
    await act(async () => {
      answer.release();
      await waitFor(() => expect(queryClient.getQueryState(unitPreferencesKey)?.status).toBe("success"));
    });
    expect(api.calls.filter((c) => c.endpoint === "getUnitPreferences")).toHaveLength(1);
    expect(renders()).toBe(before);
    expect(errors).toEqual([]);
    // The same functions: memoised children given them keep their render.
    expect(result.current).toBe(first);
  });

  it("draws again in gallons when the owner's stored unit is gallons", async () => {
    const answer = heldAnswer("gal");
    fakeApi({ getUnitPreferences: answer.handler });
    const { result } = renderVolume();
    expect(result.current.unit).toBe("L");
    answer.release();
    await waitFor(() => expect(result.current.unit).toBe("gal"));
    expect(result.current.volume(37.85411784)).toMatch(/^10 /);
  });
});
