// The build step that puts the shell's stylesheet first in its head (shared/first-paint/shell.ts, decision 033).
import type { Plugin } from "vite";
import { stylesheetFirst } from "../../shared/first-paint/shell.ts";

export function stylesheetFirstPlugin(): Plugin {
  return {
    name: "stylesheet-first",
    apply: "build",
    transformIndexHtml: { order: "post", handler: stylesheetFirst },
  };
}
