import { describe, expect, it } from "vitest";
import { boundaryViolations, importSpecifiers, type SourceFile } from "./import-boundaries";

// Every module's text, read by Vite at test time; keys look like "../features/agents/x.tsx".
const SOURCES = import.meta.glob<string>(["../**/*.ts", "../**/*.tsx"], { query: "?raw", import: "default", eager: true });

function sourceFiles(): SourceFile[] {
  return Object.entries(SOURCES).map(([key, source]) => ({ path: key.replace(/^\.\.\//, ""), source }));
}

describe("import boundaries", () => {
  it("hold across web/src: no feature imports another, components/, lib/ and api/ import none, lib/ imports no component", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(50);
    expect(boundaryViolations(files)).toEqual([]);
  });

  it("catch a feature importing another feature, by alias or by relative path", () => {
    const files: SourceFile[] = [
      { path: "features/agents/components/a.tsx", source: 'import { X } from "@web/features/call-logs/components/x";' },
      { path: "features/agents/components/b.tsx", source: 'export { Y } from "../../phone-numbers/api/y";' },
      { path: "features/agents/components/c.tsx", source: 'const Z = lazy(() => import("@web/features/auth/components/z"));' },
      { path: "features/agents/components/ok.tsx", source: 'import { A } from "../api/a";\nimport { B } from "@web/features/agents/b";' },
    ];
    expect(boundaryViolations(files).map((v) => v.file)).toEqual([
      "features/agents/components/a.tsx",
      "features/agents/components/b.tsx",
      "features/agents/components/c.tsx",
    ]);
  });

  it("catch a shared layer importing a feature, and let routes import any", () => {
    const files: SourceFile[] = [
      { path: "components/layout/menu.tsx", source: 'import { useAuth } from "@web/features/auth/auth-provider";' },
      { path: "lib/thing.ts", source: 'import "../features/mailbox/side-effect";' },
      { path: "api/agents.ts", source: 'import type { T } from "@web/features/agents/types";' },
      { path: "routes/_app/call-logs.tsx", source: 'import { CallLogsPage } from "@web/features/call-logs/components/call-logs-page";' },
    ];
    expect(boundaryViolations(files).map((v) => `${v.file}: ${v.rule}`)).toEqual([
      "components/layout/menu.tsx: components/ imports a feature",
      "lib/thing.ts: lib/ imports a feature",
      "api/agents.ts: api/ imports a feature",
    ]);
  });

  it("catch lib/ importing a component, by alias or by relative path, and let components import lib", () => {
    const files: SourceFile[] = [
      { path: "lib/auth/provider.tsx", source: 'import { toast } from "@web/components/ui/toast-store";' },
      { path: "lib/title.ts", source: 'import { APP_NAME } from "../components/brand/logo";' },
      { path: "lib/ok.ts", source: 'import { cn } from "./utils";' },
      { path: "components/brand/logo.tsx", source: 'import { APP_NAME } from "@web/lib/document-title";' },
    ];
    expect(boundaryViolations(files).map((v) => `${v.file}: ${v.rule}`)).toEqual([
      "lib/auth/provider.tsx: lib/ imports a component",
      "lib/title.ts: lib/ imports a component",
    ]);
  });

  it("read static, type-only, re-exported, side-effect and dynamic imports", () => {
    const source = [
      'import a from "a";',
      'import type { B } from "b";',
      'export * from "c";',
      'import "d";',
      'const e = await import("e");',
      'import {\n  f,\n  g,\n} from "fg";',
    ].join("\n");
    expect(importSpecifiers(source)).toEqual(["a", "b", "c", "d", "e", "fg"]);
  });
});
