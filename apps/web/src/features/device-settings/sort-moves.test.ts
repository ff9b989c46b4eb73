import { describe, expect, it } from "vitest";
import { dropIndex, moveById, moveItem, orderChanged } from "./sort-moves.ts";

const ids = (list: { id: string }[]) => list.map((x) => x.id);
const list = [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }];

describe("sort moves (DeviceSort)", () => {
  it("moves an item to another index without changing the input", () => {
    expect(moveItem(["a", "b", "c", "d"], 0, 2)).toEqual(["b", "c", "a", "d"]);
    expect(moveItem(["a", "b", "c", "d"], 3, 0)).toEqual(["d", "a", "b", "c"]);
    expect(moveItem(["a", "b"], 0, 9)).toEqual(["b", "a"]);
    expect(moveItem(["a", "b"], 5, 0)).toEqual(["a", "b"]);
  });
  it("moves one place up or down, not past the ends", () => {
    expect(ids(moveById(list, "c", -1))).toEqual(["a", "c", "b", "d"]);
    expect(ids(moveById(list, "c", 1))).toEqual(["a", "b", "d", "c"]);
    expect(ids(moveById(list, "a", -1))).toEqual(["a", "b", "c", "d"]);
    expect(ids(moveById(list, "d", 1))).toEqual(["a", "b", "c", "d"]);
    expect(ids(moveById(list, "x", 1))).toEqual(["a", "b", "c", "d"]);
  });
  it("turns a drag distance into a drop index", () => {
    expect(dropIndex(1, 0, 60, 4)).toBe(1);
    expect(dropIndex(1, 35, 60, 4)).toBe(2);
    expect(dropIndex(1, -100, 60, 4)).toBe(0);
    expect(dropIndex(1, 1000, 60, 4)).toBe(3);
  });
  it("tells a changed order", () => {
    expect(orderChanged(["a", "b"], ["a", "b"])).toBe(false);
    expect(orderChanged(["a", "b"], ["b", "a"])).toBe(true);
  });
});
