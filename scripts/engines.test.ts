import { describe, expect, it } from "vitest";
import { enginesMisfits } from "./engines.mjs";

const installed = {
  packages: {
    "": { engines: { node: ">=20" } },
    "node_modules/wrangler": { engines: { node: ">=22.0.0" } },
    "node_modules/old-tool": { engines: { node: "^18.0.0 || ^20.0.0" } },
    "node_modules/fsevents": { engines: { node: ">=24" }, optional: true },
    "node_modules/plain": {},
  },
};

describe("engines check against the project's Node", () => {
  it("names every installed package whose engines.node excludes that Node", () => {
    expect(enginesMisfits(installed, "22.23.3")).toEqual([
      { where: "node_modules/old-tool", wanted: "^18.0.0 || ^20.0.0" },
    ]);
  });

  it("names what a Node 20 would not run, so the check is made against the right Node", () => {
    expect(enginesMisfits(installed, "20.20.2").map((m: { where: string }) => m.where)).toEqual([
      "node_modules/wrangler",
    ]);
  });
});
