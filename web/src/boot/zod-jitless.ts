// Zod compiles object parsers with `new Function` when it may, and probes for that when it builds
// its first object schema. The page's CSP (script-src 'self', no 'unsafe-eval') refuses it: the
// probe's error is caught, but Chromium still reports a CSP violation (Lighthouse's best practices
// count it). Zod's `jitless` setting turns the probe off. Imported first by main.tsx, before any
// schema is built. Zod keeps its settings on `globalThis.__zod_globalConfig` (shared by every copy
// of the library); writing there, instead of calling `config()` from "zod/v4/core", keeps zod off
// the first page (decision 023). zod-jitless.test.ts holds zod's own `config()` to this.
const ZOD_CONFIG_KEY = "__zod_globalConfig";

const scope = globalThis as typeof globalThis & { [ZOD_CONFIG_KEY]?: Record<string, unknown> };
scope[ZOD_CONFIG_KEY] = Object.assign(scope[ZOD_CONFIG_KEY] ?? {}, { jitless: true });
export {};
