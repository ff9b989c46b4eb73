import { describe, expect, it } from "vitest";
import { announcedLength, fileNameOf } from "./stream-headers.ts";

describe("stream helpers", () => {
  it("announcedLength: Content-Length only when it counts the bytes read", () => {
    expect(announcedLength(new Headers({ "content-length": "42" }))).toBe(42);
    expect(announcedLength(new Headers({ "content-length": "42", "content-encoding": "gzip" }))).toBeNull();
    expect(announcedLength(new Headers({ "content-length": "42", "content-encoding": "identity" }))).toBe(42);
    expect(announcedLength(new Headers({ "content-length": "-1" }))).toBeNull();
    expect(announcedLength(new Headers())).toBeNull();
  });

  it("fileNameOf: RFC 6266 names, the extended one first, never a folder", () => {
    expect(fileNameOf('attachment; filename="water-raw.csv"')).toBe("water-raw.csv");
    expect(fileNameOf("attachment; filename=plain.csv")).toBe("plain.csv");
    expect(fileNameOf(`attachment; filename="x.csv"; filename*=UTF-8''eau%20%C3%A9t%C3%A9.csv`)).toBe("eau été.csv");
    expect(fileNameOf('attachment; filename="../../etc/passwd"')).toBe("passwd");
    expect(fileNameOf('attachment; filename="a\\"b.csv"')).toBe('a"b.csv');
    expect(fileNameOf("attachment")).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});
