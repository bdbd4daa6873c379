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

/**
 * A query's data whose first arrival renders deferred: a query answer reaches React through a store
 * it renders at once, in one task, so a page full of new data is one long task on a phone. The
 * first value stays undefined for one more render and arrives in a deferred one React slices; later
 * values (a save, a delete) come through at once, so focus can follow what they bring (decision 035).
 */
export function useDeferredFirst<T>(value: T | undefined): T | undefined {
  return useDeferredValue(value) === undefined ? undefined : value;
}
