// @swc/core as dependency-cruiser sees it, except that .tsx files are parsed with JSX on:
// dependency-cruiser parses every TypeScript file with one fixed set of swc options (no `tsx`), and
// its other TypeScript parser needs the compiler's JS API, which TypeScript 7 does not have.
import { createRequire } from "node:module";

const swc = createRequire(import.meta.url)("@swc/core");
const withJsx = (file, options) => (String(file).endsWith(".tsx") ? { ...options, tsx: true } : options);

export default {
  ...swc,
  parseFileSync: (file, options) => swc.parseFileSync(file, withJsx(file, options)),
  parseFile: (file, options) => swc.parseFile(file, withJsx(file, options)),
};
