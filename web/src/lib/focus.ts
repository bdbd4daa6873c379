// Keeping keyboard focus on the page when the control that had it goes away. A screen that swaps one
// part for another (the agent form for its card, an 'Assign' picker for 'Unassign') removes the
// focused button, and the browser drops focus on the page body: a keyboard user starts over from the
// top. These helpers put focus on the first control of the part that took its place, and only when
// focus was lost, never taking it from wherever the person has moved on to.
import { useEffect, useRef, type RefObject } from "react";

const CONTROLS = [
  "input:not([type='hidden']):not(:disabled)",
  "textarea:not(:disabled)",
  "select:not(:disabled)",
  "button:not(:disabled)",
  "a[href]",
  "[tabindex]:not([tabindex='-1'])",
].join(", ");

/** Whether focus has fallen to nothing (the body), as it does when the focused element is removed. */
export function focusLost(doc: Document = document) {
  const active = doc.activeElement;
  return active === null || active === doc.body || !active.isConnected;
}

/** The first control in `container` a person could Tab to, if any. */
export function firstControl(
  container: ParentNode | null | undefined,
): HTMLElement | null {
  return container?.querySelector<HTMLElement>(CONTROLS) ?? null;
}

/**
 * When `key` changes (not on first render) and focus has been lost, focus the first control inside
 * `container`. Runs after the commit, once the new part is on the page. A key that was null had
 * nothing in its place (the page was loading): its first value is an arrival, not a swap, and a page
 * that has just loaded keeps focus where the browser put it (decision 030).
 */
export function useRefocusOnSwap(
  container: RefObject<HTMLElement | null>,
  key: unknown,
) {
  const previous = useRef(key);
  useEffect(() => {
    if (Object.is(previous.current, key)) return;
    const arrival = previous.current === null;
    previous.current = key;
    if (!arrival && focusLost(container.current?.ownerDocument))
      firstControl(container.current)?.focus();
  }, [container, key]);
}
