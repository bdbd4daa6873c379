import { describe, expect, it } from "vitest";
import { stylesheetFirst, withEarlyEntry } from "./shell";

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

describe("withEarlyEntry", () => {
  // The shell as Vite writes it, with the preload of the early entry the app's entry imports.
  const built = BUILT.replace(
    '    <link rel="modulepreload" crossorigin href="/assets/a-1.js">',
    '    <link rel="modulepreload" crossorigin href="/assets/early-1.js">\n    <link rel="modulepreload" crossorigin href="/assets/a-1.js">',
  );

  it("puts the early entry's async script before the app's entry, in place of its module preload", () => {
    const out = withEarlyEntry(built, "/assets/early-1.js");
    expect(out.split("\n").slice(3, 8)).toEqual([
      "    <title>Voice Agent Ops</title>",
      '    <script type="module" async crossorigin fetchpriority="high" src="/assets/early-1.js"></script>',
      '    <script type="module" crossorigin src="/assets/index-1.js"></script>',
      '    <link rel="modulepreload" crossorigin href="/assets/a-1.js">',
      '    <link rel="stylesheet" crossorigin href="/assets/index-1.css">',
    ]);
    expect(withEarlyEntry(out, "/assets/early-1.js")).toBe(out);
    // The build then puts the stylesheet first, before both scripts.
    expect(stylesheetFirst(out).split("\n").slice(3, 6)).toEqual([
      "    <title>Voice Agent Ops</title>",
      '    <link rel="stylesheet" crossorigin href="/assets/index-1.css">',
      '    <script type="module" async crossorigin fetchpriority="high" src="/assets/early-1.js"></script>',
    ]);
  });

  it("leaves a shell without a head or a script as it is", () => {
    const noScript = built.replace(/.*<script.*\n/, "");
    expect(withEarlyEntry(noScript, "/assets/early-1.js")).toBe(noScript);
    expect(withEarlyEntry("<p>no head</p>", "/assets/early-1.js")).toBe("<p>no head</p>");
  });
});
