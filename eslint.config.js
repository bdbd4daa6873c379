// ESLint (flat config): `npm run lint`, and the "lint" stage of `npm test` with no warning allowed.
// Which rules are on and why: docs/decisions/043-linter.md.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores([
    "dist/",
    ".wrangler/",
    ".cache/",
    ".config/",
    ".tanstack/",
    "e2e/artifacts/",
    // Generated: by TanStack Router's plugin and by `npm run cf-typegen`.
    "web/src/route-tree.gen.ts",
    "worker/worker-configuration.d.ts",
  ]),
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names mark a parameter or binding kept on purpose (a handler's signature, a rest omit).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },

  // Test helpers type a JSON answer as Record<string, any> so assertions can reach into it; a wrong
  // field fails the assertion at run time, which is the test's job. Application code stays without any.
  {
    files: ["**/*.test.{ts,tsx}", "worker/test/**", "web/src/test/**", "web/src/**/test/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },

  // Where each file runs decides its globals. In TypeScript files the compiler checks names against
  // each tsconfig's lib and types (typescript-eslint turns no-undef off there); these serve the
  // JavaScript files (scripts, bench, the journey runner) and the rules that read globals.
  { files: ["worker/**"], languageOptions: { globals: { ...globals.serviceworker } } },
  { files: ["web/src/**"], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ["scripts/**", "bench/**", "e2e/**", "*.config.{js,ts}"],
    languageOptions: { globals: { ...globals.node } },
  },
  { files: ["**/*.cjs"], languageOptions: { sourceType: "commonjs", globals: { ...globals.node } } },
  // Journeys hand functions to the page (page.evaluate, waitForFunction): those bodies run in the browser.
  { files: ["e2e/**"], languageOptions: { globals: { ...globals.browser } } },
  { files: ["shared/**"], languageOptions: { globals: { ...globals["shared-node-browser"] } } },

  // The SPA: hooks and accessibility.
  {
    files: ["web/src/**/*.{ts,tsx}"],
    extends: [reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
  },
);
