// Work that can wait for the page: it runs after the load event, when the main thread is idle.

/** Runs `task` once the page has loaded and the browser is idle (at most `timeoutMs` later); returns a cancel. */
export function whenIdleAfterLoad(task: () => void, timeoutMs = 2000): () => void {
  let cancelled = false;
  let idleHandle: number | undefined;
  const schedule = () => {
    if (cancelled) return;
    if (typeof window.requestIdleCallback === "function")
      idleHandle = window.requestIdleCallback(() => !cancelled && task(), {
        timeout: timeoutMs,
      });
    else idleHandle = window.setTimeout(() => !cancelled && task(), 1);
  };
  if (document.readyState === "complete") schedule();
  else window.addEventListener("load", schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener("load", schedule);
    if (idleHandle !== undefined) {
      if (typeof window.cancelIdleCallback === "function") window.cancelIdleCallback(idleHandle);
      else window.clearTimeout(idleHandle);
    }
  };
}

type Scheduler = { yield?: () => Promise<void> };

/**
 * Lets the browser run other work (input, paint) before the caller goes on, where the browser
 * offers `scheduler.yield` (the continuation keeps its place ahead of other queued tasks).
 * Elsewhere it returns at once, so behaviour never depends on it.
 */
export function yieldToBrowser(): Promise<void> | undefined {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  return typeof scheduler?.yield === "function" ? scheduler.yield() : undefined;
}
