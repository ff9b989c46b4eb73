import { describe, expect, it } from "vitest";
import { nextTask } from "./index.js";

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
