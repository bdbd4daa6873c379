// The SPA's import rule (bulletproof-react): shared code → features → routes. A feature never imports
// another feature, and the shared layers (components/, lib/, api/) import no feature at all. Within
// them, lib/ is below components/: a component imports lib, lib imports no component.
export type SourceFile = { path: string; source: string };
export type Violation = { file: string; imports: string; rule: string };

const SHARED_LAYERS = ["components", "lib", "api"];
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

/** The import specifiers of a module: static, re-exported, side-effect and dynamic ones. */
export function importSpecifiers(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((m) => m[1]);
}

/** `specifier` as a path under web/src ("features/agents/api/x"), or null when it points outside. */
function resolveUnderSrc(file: string, specifier: string): string | null {
  if (specifier.startsWith("@web/")) return specifier.slice("@web/".length);
  if (!specifier.startsWith(".")) return null;
  const parts = file.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

const featureOf = (p: string) => (p.startsWith("features/") ? p.split("/")[1] : null);

/** Every import that breaks the rule; `path` of each file is relative to web/src. */
export function boundaryViolations(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const layer = file.path.split("/")[0];
    const ownFeature = featureOf(file.path);
    for (const specifier of importSpecifiers(file.source)) {
      const target = resolveUnderSrc(file.path, specifier);
      if (layer === "lib" && target?.startsWith("components/")) {
        violations.push({ file: file.path, imports: specifier, rule: "lib/ imports a component" });
      }
      const targetFeature = target && featureOf(target);
      if (!targetFeature) continue;
      if (ownFeature && targetFeature !== ownFeature) {
        violations.push({ file: file.path, imports: specifier, rule: "a feature imports another feature" });
      } else if (SHARED_LAYERS.includes(layer)) {
        violations.push({ file: file.path, imports: specifier, rule: `${layer}/ imports a feature` });
      }
    }
  }
  return violations;
}
