// The tab's one live feed, wired to the browser: the ticket through the signed-in API client, the
// socket on this page's origin, the page's visibility and the session's token. Screens that show live
// data call `useLiveFeed()`; the socket opens while at least one is mounted and the user is signed in.
import { useEffect, useRef, useSyncExternalStore } from "react";
import type { LiveMessage } from "@shared/schemas/live";
import { apiJson, getAccessToken, onAccessTokenChange } from "@web/lib/api";
import { LiveFeed, type LiveFeedDeps, type LiveListener, type LiveSocket, type LiveStatus } from "./feed";

export type { LiveStatus } from "./feed";

const TICKET_PATH = "/api/live/ticket";
const SOCKET_PATH = "/api/live";

export function liveSocketUrl(ticket: string, after: string | null, location: Pick<Location, "protocol" | "host"> = window.location): string {
  const params = new URLSearchParams({ ticket });
  if (after !== null) params.set("after", after);
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${SOCKET_PATH}?${params}`;
}

export const browserDeps = (): LiveFeedDeps => ({
  getTicket: () => apiJson("POST", TICKET_PATH),
  // WebSocket's handlers take its own event types; the feed reads only `data` and `code` from them.
  openSocket: (url) => new WebSocket(url) as unknown as LiveSocket,
  socketUrl: (ticket, after) => liveSocketUrl(ticket, after),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  random: Math.random,
});

let feed: LiveFeed | null = null;
let unbind: (() => void) | null = null;

/** The tab's feed, created on first use and following the session's token and the page's visibility. */
export function liveFeed(): LiveFeed {
  if (feed) return feed;
  const created = new LiveFeed(browserDeps());
  created.setToken(getAccessToken());
  created.setVisible(document.visibilityState !== "hidden");
  const stopToken = onAccessTokenChange((token) => created.setToken(token));
  const onVisibility = () => created.setVisible(document.visibilityState !== "hidden");
  document.addEventListener("visibilitychange", onVisibility);
  unbind = () => {
    stopToken();
    document.removeEventListener("visibilitychange", onVisibility);
  };
  feed = created;
  return created;
}

/** Drops the tab's feed (tests start each case with a new one). */
export function resetLiveFeed() {
  unbind?.();
  unbind = null;
  feed?.dispose();
  feed = null;
}

/**
 * Keeps the feed open while the calling screen is mounted (and `enabled`) and returns its status. `listener` (kept
 * current without reconnecting) receives the messages and refetch signals.
 */
export function useLiveFeed(listener?: LiveListener, enabled = true): LiveStatus {
  const current = useRef(listener);
  useEffect(() => {
    current.current = listener;
  });
  const instance = liveFeed();
  useEffect(() => {
    if (!enabled) return;
    const stopListening = instance.listen({
      message: (msg: LiveMessage) => current.current?.message?.(msg),
      refetch: () => current.current?.refetch?.(),
    });
    const release = instance.acquire();
    return () => {
      stopListening();
      release();
    };
  }, [instance, enabled]);
  const status = useSyncExternalStore(instance.subscribe, instance.getStatus, instance.getStatus);
  // A screen that does not hold the feed open does not show another screen's connection as its own.
  return enabled ? status : "off";
}
