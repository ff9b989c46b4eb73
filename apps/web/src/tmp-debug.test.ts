import { it } from "vitest";
it("debug", async () => {
  const r = await import("react");
  console.log("react in test", r.version);
  const m = await import("react-i18next");
  console.log(Object.keys(m).length);
});
