import { describe, expect, it } from "vitest";
import { LOCAL_TOOL_PAGES } from "@shared/local-tools";

// Every module's text, read by Vite at test time; keys look like "../routes/mailbox.tsx".
const SOURCES = import.meta.glob<string>(["../**/*.ts", "../**/*.tsx", "!../**/*.test.ts", "!../**/*.test.tsx"], { query: "?raw", import: "default", eager: true });

/** The pages whose feature reads a local tool's API (/api/local/...): each page's path, from its route file. */
function pagesReadingLocalApis(): string[] {
  const featuresReadingLocal = new Set(
    Object.entries(SOURCES)
      .filter(([key, source]) => key.startsWith("../features/") && /\/api\/local\/|WEBHOOK_INBOX_PATH/.test(source))
      .map(([key]) => key.split("/")[2]),
  );
  return Object.entries(SOURCES)
    .filter(([key]) => key.startsWith("../routes/"))
    .flatMap(([, source]) => {
      const path = /createFileRoute\("([^"]+)"\)/.exec(source)?.[1];
      const features = [...source.matchAll(/@web\/features\/([a-z0-9-]+)\//g)].map((m) => m[1]);
      return path && features.some((f) => featuresReadingLocal.has(f)) ? [path] : [];
    });
}

describe("the local tools' pages", () => {
  it("are every page that reads a local tool's API, so production answers each 404 (worker/shell/serve-shell.ts)", () => {
    expect(pagesReadingLocalApis().sort()).toEqual([...LOCAL_TOOL_PAGES].sort());
  });
});
