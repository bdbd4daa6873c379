import { describe, expect, it } from "vitest";
import { stylesheetFirst } from "./shell";

const BUILT = [
  "<!doctype html>",
  "<html>",
  "  <head>",
  "    <title>Voice Agent Ops</title>",
  '    <script type="module" crossorigin src="/assets/index-1.js"></script>',
  '    <link rel="modulepreload" crossorigin href="/assets/a-1.js">',
  '    <link rel="stylesheet" crossorigin href="/assets/index-1.css">',
  "  </head>",
  "  <body>",
  '    <div id="root"></div>',
  "  </body>",
  "</html>",
].join("\n");

describe("stylesheetFirst", () => {
  const built = BUILT;

  it("moves the stylesheet before the first script and module preload, and changes nothing else", () => {
    const out = stylesheetFirst(built);
    const lines = out.split("\n");
    expect(lines.slice(3, 7)).toEqual([
      "    <title>Voice Agent Ops</title>",
      '    <link rel="stylesheet" crossorigin href="/assets/index-1.css">',
      '    <script type="module" crossorigin src="/assets/index-1.js"></script>',
      '    <link rel="modulepreload" crossorigin href="/assets/a-1.js">',
    ]);
    expect(lines.toSorted()).toEqual(built.split("\n").toSorted());
    expect(stylesheetFirst(out)).toBe(out);
  });

  it("leaves a shell without a stylesheet, or without a script before it, as it is", () => {
    const noSheet = built.replace(/.*rel="stylesheet".*\n/, "");
    expect(stylesheetFirst(noSheet)).toBe(noSheet);
    const sheetFirst = stylesheetFirst(built);
    expect(stylesheetFirst(sheetFirst)).toBe(sheetFirst);
    // A stylesheet link in the body is not the head's.
    const inBody = noSheet.replace('<div id="root"></div>', '<div id="root"></div><link rel="stylesheet" href="/x.css">');
    expect(stylesheetFirst(inBody)).toBe(inBody);
  });
});
