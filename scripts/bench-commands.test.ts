// Every `npm run bench` command the docs give picks the bench it names and parses under that bench's
// options (bench/modes.mjs), so a documented command runs as written.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { BENCH_MODES, DEFAULT_MODE, benchMode, forwardedArgs } from "../bench/modes.mjs";

type Mode = { script: string; usage: string; options: NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>["options"]> };
const modes = BENCH_MODES as unknown as Record<string, Mode>;
const defaultMode = DEFAULT_MODE as unknown as Mode;
const root = path.join(import.meta.dirname, "..");

/** The docs' pages: README, docs/ (not the decision records, which keep the commands of their day) and the benches' own headers. */
function pages() {
  const docs = readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md") && !f.startsWith("decisions"))
    .map((f) => path.join(root, "docs", f));
  const benches = readdirSync(path.join(root, "bench")).filter((f) => f.endsWith(".mjs")).map((f) => path.join(root, "bench", f));
  return [path.join(root, "README.md"), ...docs, ...benches];
}

/** Each documented `npm run bench -- …` line as arguments, an optional `[--x N]` given as `--x 2`. */
function documentedCommands() {
  const found = new Map<string, string[]>();
  for (const file of pages()) {
    // A command in a script's header may run on over a comment line break.
    const text0 = readFileSync(file, "utf8").replace(/\n\/\/\s+/g, " ");
    for (const [, line] of text0.matchAll(/`npm run bench( -- [^`\n]*)?`/g)) {
      const text = (line ?? "").replace(/^ -- /, "").replace(/\.\.\./g, "");
      const args = text
        .replace(/\[(--[\w-]+)( [A-Z,]+)?\]/g, (_, flag: string, value?: string) => (value ? `${flag} 2` : flag))
        .split(/\s+/)
        .filter(Boolean);
      found.set(`npm run bench -- ${text}`.trim(), args);
    }
  }
  return found;
}

const parse = (options: Mode["options"], args: string[]) => parseArgs({ args, options: { ...options, help: { type: "boolean", short: "h" } } });

describe("the bench's command lines", () => {
  it("finds the documented commands", () => {
    expect(documentedCommands().size).toBeGreaterThan(5);
  });

  for (const [command, args] of documentedCommands()) {
    it(`${command} picks one bench and parses`, () => {
      const picked = benchMode(args);
      expect(picked.error, command).toBeUndefined();
      const name = picked.mode ?? "";
      const mode = name === "default" ? defaultMode : modes[name];
      expect(() => parse(mode.options, forwardedArgs(name, args))).not.toThrow();
    });
  }

  it("a mode flag picks its bench even when another bench has an option of that name", () => {
    expect(benchMode(["--live", "--sockets", "500", "--webhooks", "30"])).toEqual({ mode: "live" });
    expect(benchMode(["--webhooks", "--events", "10"])).toEqual({ mode: "webhooks" });
    expect(benchMode(["--webhooks"])).toEqual({ mode: "webhooks" });
    expect(benchMode(["--live"])).toEqual({ mode: "live" });
    expect(benchMode(["--search", "--full"])).toEqual({ mode: "search" });
    expect(benchMode(["--alerts", "--full"])).toEqual({ mode: "alerts" });
    expect(benchMode(["--full", "--d1-rtt", "50"])).toEqual({ mode: "default" });
  });

  it("the live bench reads its counts from the documented line", () => {
    const { values } = parse(modes.live.options, ["--live", "--sockets", "500", "--webhooks", "30"]);
    expect(values).toMatchObject({ sockets: "500", webhooks: "30" });
  });

  it("a line that fits no bench, or two, is refused with their usages", () => {
    expect(benchMode(["--live", "--events", "3"]).error).toContain(modes.live.usage);
    expect(benchMode(["--alerts", "--search"]).error).toMatch(/fit no bench/);
  });
});
