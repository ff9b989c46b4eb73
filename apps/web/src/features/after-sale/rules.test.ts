import { describe, expect, it } from "vitest";
import { type AfterSaleDraft, draftProblem, type PhotoItem, photosThatFit, uploadedPaths } from "./rules.ts";

const photo = (i: number, status: PhotoItem["status"] = "done"): PhotoItem => ({
  key: `p${i}`,
  preview: `blob:${i}`,
  path: status === "done" ? `/uploads/files/${i}.jpg` : null,
  status,
});

const draft = (over: Partial<AfterSaleDraft> = {}): AfterSaleDraft => ({
  deviceId: "d1",
  description: "The softener leaks at the brine tank.",
  photos: [],
  ...over,
});

describe("after-sales request rules", () => {
  it("needs a device and a description of 5–500 characters after trimming", () => {
    expect(draftProblem(draft())).toBeNull();
    expect(draftProblem(draft({ deviceId: null }))).toBe("device");
    expect(draftProblem(draft({ description: "  abcd   " }))).toBe("descriptionShort");
    expect(draftProblem(draft({ description: "abcde" }))).toBeNull();
    expect(draftProblem(draft({ description: "x".repeat(501) }))).toBe("descriptionLong");
  });

  it("waits for uploads and sends only uploaded photos, at most 6", () => {
    expect(draftProblem(draft({ photos: [photo(1), photo(2, "uploading")] }))).toBe("uploading");
    expect(uploadedPaths([photo(1), photo(2, "failed"), photo(3)])).toEqual([
      "/uploads/files/1.jpg",
      "/uploads/files/3.jpg",
    ]);
    expect(draftProblem(draft({ photos: Array.from({ length: 7 }, (_, i) => photo(i)) }))).toBe("tooManyPhotos");
  });

  it("lets only as many picked photos in as fit under 6", () => {
    expect(photosThatFit(0, 3)).toBe(3);
    expect(photosThatFit(4, 5)).toBe(2);
    expect(photosThatFit(6, 1)).toBe(0);
  });
});
