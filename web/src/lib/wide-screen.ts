// Whether the screen is wide enough for the fixed sidebar (Tailwind's `md`, 48rem). The frame renders
// the sidebar's navigation there and the phone's top bar elsewhere, so the alert bell is in the one
// the screen shows, once.
import { useSyncExternalStore } from "react";

export const WIDE_SCREEN_QUERY = "(min-width: 48rem)";

const media = () => (typeof window.matchMedia === "function" ? window.matchMedia(WIDE_SCREEN_QUERY) : null);

function subscribe(onChange: () => void) {
  const list = media();
  list?.addEventListener("change", onChange);
  return () => list?.removeEventListener("change", onChange);
}

/** True on a wide screen, and where media queries are unknown (a test's DOM). */
export const useWideScreen = () => useSyncExternalStore(subscribe, () => media()?.matches ?? true);
