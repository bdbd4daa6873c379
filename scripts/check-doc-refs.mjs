#!/usr/bin/env node
// Checks that every reference to the repository's documentation still points somewhere real, and that
// nothing cites the old requirement documents that lived outside the repository.
//
//   node scripts/check-doc-refs.mjs              prove the check on scripts/doc-refs-fixture/, then check the
//                                                repository; exit 1 listing each problem
//   node scripts/check-doc-refs.mjs --self-test  only prove the check on the fixture
//
// What counts as a reference:
// - `docs/<path>.md` or `docs/<path>.md#anchor` anywhere in a scanned file, read from the repository root;
// - a relative Markdown link `[text](target)` or `[text](target#anchor)` in a Markdown file under docs/
//   or in README.md, read from that file's folder (`#anchor` alone points into the file itself).
// A reference fails when its file does not exist or its anchor is not a heading of that file (GitHub's
// slug: lower case, punctuation removed, spaces to '-', a repeated heading gets -1, -2, …).
// A citation fails wherever it appears: a spec section ("spec" N "§", any case) or the design document
// (its file name, or its name before "§"), since neither document is in the repository. Their words now live in docs/product/.
// A decision citation ("decision" NNN, or "decisions" NNN, NNN and NNN; any case) fails when no
// docs/decisions/NNN-*.md exists: a record folded into a topic page keeps a stub under its number.
//
// Plain Node ESM, no dependencies.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(import.meta.url);
const REPO = path.resolve(path.dirname(SCRIPT), "..");
const FIXTURE = path.join(REPO, "scripts", "doc-refs-fixture");

/** What is scanned, from the root: folders and single files. */
const ROOTS = ["worker", "web/src", "shared", "scripts", "e2e", "bench", "migrations", "docs", "README.md"];
const SKIP_DIRS = new Set(["node_modules", "dist", ".wrangler", ".git"]);
const TEXT_EXT = new Set([
  ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".md", ".json", ".css", ".html",
  ".txt", ".toml", ".yaml", ".yml", ".sql", ".sh",
]);

// The citation patterns are built from pieces so this file does not cite them itself.
const SECTION = "\u00a7";
const CITATIONS = [
  // A section of one of the two spec documents: "spec", its number, "§" (any case; "(" allowed before "§").
  { re: new RegExp(`\\bspec\\s*\\d+\\s*\\(?\\s*${SECTION}`, "gi"), what: "a section of an external spec document" },
  // The design document: its file name, or its name followed by "§".
  { re: new RegExp(["\\bDESIGN", `(?:\\.md|\\s*${SECTION})`].join(""), "g"), what: "the external design document" },
];

/** `docs/….md` with an optional anchor, not part of a longer path (`web/docs/…` is not ours). */
const DOC_REF = /(?<![\w.-])(?<![\w-]\/)docs\/((?:[\w.-]+\/)*[\w.-]+?\.md)(?![\w])(?:#([\w-]+))?/g;
/** "decision 051", "Decisions 027, 062 and 065", "decisions 030/033": every three-digit number in the run. */
const DECISION_CITE = /\bdecisions?\s+(\d{3}(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*\/\s*)\d{3})*)(?!\d)/gi;
/** A Markdown link's target, with an optional title. */
const MD_LINK = /\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

function listFiles(root, skip) {
  const out = [];
  const walk = (abs) => {
    let st;
    try {
      st = statSync(abs);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      if (SKIP_DIRS.has(path.basename(abs)) || skip.some((s) => abs === s)) return;
      for (const name of readdirSync(abs).sort()) walk(path.join(abs, name));
    } else if (st.isFile() && TEXT_EXT.has(path.extname(abs)) && abs !== SCRIPT) {
      out.push(abs);
    }
  };
  for (const r of ROOTS) walk(path.join(root, r));
  return out;
}

/** GitHub's anchor for a heading's text. */
export function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML tags
    .replace(/[`*]/g, "") // code and emphasis marks
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

const anchorCache = new Map();
/** The anchors a Markdown file defines: its headings' slugs (repeats numbered) and explicit ids. */
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const anchors = new Set();
  const seen = new Map();
  let fence = null;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) {
      if (!fence) fence = f[1];
      else if (fence === f[1]) fence = null;
      continue;
    }
    if (fence) continue;
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:name|id)\s*=\s*"([^"]+)"/gi)) anchors.add(m[1]);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** Checks one reference; returns the problem's text or null. */
function checkTarget(root, targetAbs, anchor, shown) {
  if (!targetAbs.startsWith(root + path.sep) && targetAbs !== root) return `points outside the repository: ${shown}`;
  if (!existsSync(targetAbs)) return `missing file: ${shown}`;
  if (anchor && targetAbs.endsWith(".md")) {
    if (statSync(targetAbs).isDirectory()) return `missing file: ${shown}`;
    if (!anchorsOf(targetAbs).has(decodeURIComponent(anchor))) return `no heading for #${anchor} in ${path.relative(root, targetAbs)}: ${shown}`;
  }
  return null;
}

/** Every problem under `root`, as { file, line, message }, in file and line order. */
export function check(root, { skip = [] } = {}) {
  anchorCache.clear();
  const problems = [];
  const decisionsDir = path.join(root, "docs", "decisions");
  const recorded = new Set(
    existsSync(decisionsDir) ? readdirSync(decisionsDir).map((n) => /^(\d{3})-.*\.md$/.exec(n)?.[1]).filter(Boolean) : [],
  );
  for (const file of listFiles(root, skip)) {
    const rel = path.relative(root, file).split(path.sep).join("/");
    const isMd = file.endsWith(".md");
    const linksChecked = isMd && (rel.startsWith("docs/") || rel === "README.md");
    let fence = null;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        const at = { file: rel, line: i + 1 };
        const found = new Set();
        const report = (message) => {
          if (found.has(message)) return;
          found.add(message);
          problems.push({ ...at, message });
        };
        for (const { re, what } of CITATIONS) {
          for (const m of line.matchAll(re)) report(`cites ${what}: "${m[0]}"`);
        }
        for (const m of line.matchAll(DECISION_CITE)) {
          for (const n of m[1].match(/\d{3}/g)) {
            if (!recorded.has(n)) report(`cites decision ${n}, but no docs/decisions/${n}-*.md exists`);
          }
        }
        for (const m of line.matchAll(DOC_REF)) {
          const problem = checkTarget(root, path.join(root, "docs", m[1]), m[2], m[0]);
          if (problem) report(problem);
        }
        if (!linksChecked) return;
        const f = /^\s*(```|~~~)/.exec(line);
        if (f) {
          if (!fence) fence = f[1];
          else if (fence === f[1]) fence = null;
          return;
        }
        if (fence) return;
        for (const m of line.replace(/`[^`]*`/g, "").matchAll(MD_LINK)) {
          const target = m[1];
          if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) continue; // URLs, site paths
          const [p, anchor] = target.split("#", 2);
          const abs = p ? path.resolve(path.dirname(file), decodeURIComponent(p)) : file;
          const problem = checkTarget(root, abs, anchor, target);
          if (problem) report(problem);
        }
      });
  }
  return problems;
}

const format = (p) => `${p.file}:${p.line}: ${p.message}`;

function selfTest() {
  // The fixture holds good references (a heading, recorded decisions) and bad ones: a missing file, a
  // missing heading, a citation of the external spec, and decisions with no record (alone and inside a
  // list of recorded ones); exactly the bad ones must be reported, each once.
  const expected = [
    "worker/example.ts:6: missing file: docs/missing.md",
    "worker/example.ts:8: no heading for #no-such-heading in docs/target.md: docs/target.md#no-such-heading",
    `worker/example.ts:10: cites a section of an external spec document: "spec 1 ${SECTION}"`,
    "worker/example.ts:14: cites decision 999, but no docs/decisions/999-*.md exists",
    "worker/example.ts:16: cites decision 998, but no docs/decisions/998-*.md exists",
  ];
  // The fixture's spec citation is written into a copy, so the repository holds no such citation.
  const copy = mkdtempSync(path.join(os.tmpdir(), "doc-refs-"));
  let got;
  try {
    cpSync(FIXTURE, copy, { recursive: true });
    const example = path.join(copy, "worker", "example.ts");
    writeFileSync(example, readFileSync(example, "utf8").replace("As SPEC_CITATION", `As spec 1 ${SECTION}7`));
    got = check(copy).map(format);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  const ok = got.length === expected.length && expected.every((e, i) => got[i] === e);
  if (ok) {
    console.log(`check-doc-refs self-test: passed (${expected.length} bad references found, the good ones accepted)`);
    return 0;
  }
  console.error("check-doc-refs self-test: FAILED");
  console.error("expected:\n  " + expected.join("\n  "));
  console.error("got:\n  " + (got.join("\n  ") || "(nothing)"));
  return 1;
}

function main(argv) {
  // The check first proves on its fixture that it finds what it must; `--self-test` stops there.
  const proven = selfTest();
  if (proven !== 0 || argv.includes("--self-test")) return proven;
  const problems = check(REPO, { skip: [FIXTURE] });
  if (problems.length === 0) {
    console.log("check-doc-refs: every docs reference resolves, every cited decision has a record, and nothing cites the external spec documents");
    return 0;
  }
  for (const p of problems) console.error(format(p));
  console.error(`check-doc-refs: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === SCRIPT) process.exitCode = main(process.argv.slice(2));
