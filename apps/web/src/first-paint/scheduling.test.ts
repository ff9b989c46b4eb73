import { describe, expect, it } from "vitest";
import { afterFirstScreen, holdUntilFirstScreen, nextTask } from "./scheduling.ts";

describe("nextTask", () => {
  it("resolves after the tasks already queued, not in the current one", async () => {
    const order: string[] = [];
    setTimeout(() => order.push("queued task"), 0);
    void Promise.resolve().then(() => order.push("microtask"));
    await nextTask();
    order.push("after nextTask");
    expect(order).toEqual(["microtask", "queued task", "after nextTask"]);
  });
});

describe("afterFirstScreen", () => {
  /** Whether `promise` has settled within `ms`. */
  const settledWithin = (promise: Promise<unknown>, ms: number) =>
    Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  it("waits for the first screen's calls, then a paint", async () => {
    let answer: (value?: unknown) => void = () => {};
    holdUntilFirstScreen(new Promise((r) => (answer = r)), 10_000);
    const shown = afterFirstScreen();
    expect(await settledWithin(shown, 100)).toBe(false);
    answer();
    expect(await settledWithin(shown, 1_000)).toBe(true);
  });

  it("waits for failed calls too", async () => {
    holdUntilFirstScreen(Promise.reject(new Error("offline")), 10_000);
    expect(await settledWithin(afterFirstScreen(), 1_000)).toBe(true);
  });

  it("resumes each waiter in a task of its own, not all in one", async () => {
    let answer: (value?: unknown) => void = () => {};
    holdUntilFirstScreen(new Promise((r) => (answer = r)), 10_000);
    const order: string[] = [];
    const waiter = (name: string) =>
      afterFirstScreen().then(() => {
        order.push(name);
        // A microtask of this waiter's task: it runs before the next waiter only when that one is in a later task.
        void Promise.resolve().then(() => order.push(`${name}'s microtask`));
      });
    const both = Promise.all([waiter("a"), waiter("b")]);
    answer();
    await both;
    await Promise.resolve();
    expect(order).toEqual(["a", "a's microtask", "b", "b's microtask"]);
  });

  it("holds no longer than its limit when the calls never answer", async () => {
    holdUntilFirstScreen(new Promise(() => {}), 150);
    const shown = afterFirstScreen();
    expect(await settledWithin(shown, 50)).toBe(false);
    expect(await settledWithin(shown, 1_000)).toBe(true);
  });
});
