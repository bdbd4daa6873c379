// The Chromium that the browser journeys (e2e/run.mjs), the dashboard bench and `npm run pagespeed` drive.
//
//   CHROMIUM_PATH=/path/to/chrome   that binary
//   CHROMIUM_PATH=npm               the Chromium shipped inside the @sparticuz/chromium package
//   (unset)                         /usr/bin/chromium when the system has it, else the npm one
//
// The npm Chromium comes compressed in the package (Brotli). Its first use unpacks it, with its fonts,
// its software GL (SwiftShader) and the NSS, NSPR and expat libraries it links against (the package's
// Amazon Linux set, which runs on Debian's glibc too), into node_modules/.cache/sparticuz-chromium-<version>/,
// once per installed version; later runs reuse it. The browser is started with those libraries and that
// font configuration, so it needs nothing from the system's packages beyond glibc.
import { spawn } from "node:child_process";
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createBrotliDecompress } from "node:zlib";
import { root } from "./lib.mjs";

export const SYSTEM_CHROMIUM = "/usr/bin/chromium";

/**
 * The flags the journeys and the dashboard bench start Chromium with (through Playwright): no sandbox
 * (a container), no GPU, HTTP over TCP, and nothing of the browser's own that would run beside the
 * page: no first-run, background networking, component updates or sync. Nor the omnibox popups that
 * each new context's window would otherwise load (about 400 chrome:// files into a renderer) while
 * the page loads, on the same CPU: a user's open window has them already.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
];

/**
 * The browser to launch: its `executablePath`, the `env` to start it with, and `label` (which browser,
 * for the run's header).
 */
export async function chromiumToLaunch() {
  const named = process.env.CHROMIUM_PATH;
  if (named && named !== "npm") return { executablePath: named, env: process.env, label: named };
  if (!named && existsSync(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, env: process.env, label: SYSTEM_CHROMIUM };
  return npmChromium();
}

async function npmChromium() {
  // A devDependency of the project, so npm puts it at the top of node_modules.
  const pkgDir = path.join(root, "node_modules", "@sparticuz", "chromium");
  if (!existsSync(path.join(pkgDir, "package.json"))) {
    throw new Error(`no ${SYSTEM_CHROMIUM} and no @sparticuz/chromium in node_modules: run npm install, or name a browser with CHROMIUM_PATH`);
  }
  const { version } = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  const dir = path.join(root, "node_modules", ".cache", `sparticuz-chromium-${version}`);
  if (!existsSync(path.join(dir, "chromium"))) await unpack(pkgDir, dir);
  const env = {
    ...process.env,
    LD_LIBRARY_PATH: [path.join(dir, "lib"), process.env.LD_LIBRARY_PATH].filter(Boolean).join(path.delimiter),
    FONTCONFIG_PATH: path.join(dir, "fontconfig"),
    // Under LANG=C (or unset) this build reports navigator.language `en-US@posix`, which Intl refuses;
    // the browser reads only the name, so the locale need not be installed.
    LANG: "en_US.UTF-8",
  };
  return { executablePath: path.join(dir, "chromium"), env, label: `@sparticuz/chromium ${version}` };
}

/**
 * Unpacks into a directory of this process and renames it into place at the end, so a run that starts
 * meanwhile (pagespeed beside the journeys) never sees a half-written binary.
 */
async function unpack(pkgDir, dir) {
  console.log(`▸ unpacking the npm Chromium into ${path.relative(root, dir)} (once per version)`);
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    // The package unpacks the browser, its fonts and SwiftShader into os.tmpdir(), which follows TMPDIR.
    const { default: sparticuz } = await import("@sparticuz/chromium");
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = partial;
    try {
      await sparticuz.executablePath(path.join(pkgDir, "bin"));
    } finally {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
    }
    // The shared libraries it links against (lib/), which the package unpacks only on AWS Lambda.
    await untarBrotli(path.join(pkgDir, "bin", "al2023.tar.br"), partial);
    // The package's fonts.conf names /tmp/fonts; this one names the fonts unpacked here.
    mkdirSync(path.join(partial, "fontconfig"));
    writeFileSync(
      path.join(partial, "fontconfig", "fonts.conf"),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
        `  <dir>${path.join(dir, "fonts")}</dir>\n  <cachedir>${path.join(dir, "fonts-cache")}</cachedir>\n</fontconfig>\n`,
    );
    if (!existsSync(path.join(partial, "chromium"))) throw new Error(`@sparticuz/chromium left no chromium in ${partial}`);
    try {
      renameSync(partial, dir);
    } catch (e) {
      if (!existsSync(path.join(dir, "chromium"))) throw e; // else another run put its copy in place first
    }
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/** `file` (a Brotli-compressed tar) extracted into `into`, with the system's tar (part of every Debian). */
function untarBrotli(file, into) {
  return new Promise((resolve, reject) => {
    const tar = spawn("tar", ["-x", "-C", into], { stdio: ["pipe", "inherit", "inherit"] });
    tar.on("error", reject);
    tar.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`tar -x ${file} exited with ${code}`))));
    createReadStream(file).on("error", reject).pipe(createBrotliDecompress()).on("error", reject).pipe(tar.stdin);
  });
}
