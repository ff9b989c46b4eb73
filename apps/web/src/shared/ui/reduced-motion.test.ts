import { afterEach, describe, expect, it, vi } from "vitest";

const calls: string[] = [];
vi.mock("antd-mobile", () => ({
  reduceMotion: () => calls.push("reduce"),
  restoreMotion: () => calls.push("restore"),
}));

const { followReducedMotion } = await import("./reduced-motion.ts");

/** A media query list whose `matches` the test sets, telling its listeners as the system would. */
function fakeMedia(matches: boolean) {
  const target = new EventTarget();
  const media = Object.assign(target, { matches, media: "(prefers-reduced-motion: reduce)" });
  const set = (value: boolean) => {
    media.matches = value;
    target.dispatchEvent(new Event("change"));
  };
  return { media: media as unknown as MediaQueryList, set };
}

describe("followReducedMotion", () => {
  afterEach(() => {
    calls.length = 0;
  });

  it("turns antd-mobile's animations off while the system asks for reduced motion, and on again after", () => {
    const { media, set } = fakeMedia(true);
    const stop = followReducedMotion(media);
    expect(calls).toEqual(["reduce"]);
    set(false);
    expect(calls).toEqual(["reduce", "restore"]);
    stop();
    set(true);
    expect(calls).toEqual(["reduce", "restore"]);
  });

  it("leaves them on for an owner who did not ask", () => {
    followReducedMotion(fakeMedia(false).media);
    expect(calls).toEqual(["restore"]);
  });
});
