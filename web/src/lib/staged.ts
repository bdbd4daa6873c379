// Rendering a page in two steps (decision 027): what the first screen shows, then the rest.
import { useDeferredValue } from "react";

/**
 * False on a component's first render, true in the render React makes right after it. That second
 * render is deferred: it starts once the first has been committed (so the first screen can paint),
 * and React renders it in slices, yielding to the browser, instead of in one long task. Later renders
 * see true at once.
 */
export function useStaged(): boolean {
  return useDeferredValue(true, false);
}
