// Test stand-in for the browser's WebSocket: records every socket the page opens, and lets a test
// send the feed's messages and close the socket with a code.
import { vi } from "vitest";
import type { LiveMessage } from "@shared/schemas/live";
import { setAccessToken } from "@web/lib/api";
import { resetLiveFeed } from "@web/lib/live/live-feed";

export class FakeWebSocket {
  static opened: FakeWebSocket[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.opened.push(this);
  }
  close(code = 1000) {
    this.closedWith = code;
  }
  send(msg: LiveMessage) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
  static last(): FakeWebSocket | undefined {
    return FakeWebSocket.opened[FakeWebSocket.opened.length - 1];
  }
}

/** A JWT-shaped token for `sub` (the feed reads only its subject). */
export const fakeToken = (sub: string) => `h.${btoa(JSON.stringify({ sub })).replace(/=+$/, "")}.s`;

/** Signs `sub` in for the API client and replaces WebSocket; undo with `uninstallLiveFeed`. */
export function installLiveFeed(sub = "user-1") {
  resetLiveFeed();
  FakeWebSocket.opened = [];
  vi.stubGlobal("WebSocket", FakeWebSocket);
  setAccessToken(fakeToken(sub));
}

export function uninstallLiveFeed() {
  resetLiveFeed();
  setAccessToken(null);
  FakeWebSocket.opened = [];
}
