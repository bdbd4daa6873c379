// The live feed's state where calls are shown: a dot and a word, in a polite status region that
// speaks only when the state changes (a reconnect, the feed going live again), never per call.
import { LIVE_TEXT } from "@shared/messages";
import type { LiveStatus } from "@web/lib/live/feed";
import { cn } from "@web/lib/utils";

const WORDS: Record<LiveStatus, string> = {
  off: "",
  connecting: LIVE_TEXT.connecting,
  live: LIVE_TEXT.live,
  reconnecting: LIVE_TEXT.reconnecting,
  paused: LIVE_TEXT.paused,
  limited: LIVE_TEXT.limited,
  stopped: LIVE_TEXT.stopped,
};

export function LiveStatusIndicator({ status, className }: { status: LiveStatus; className?: string }) {
  const word = WORDS[status];
  return (
    <p role="status" aria-live="polite" data-status={status} className={cn("inline-flex min-h-9 items-center gap-2 text-sm text-muted-foreground", className)}>
      {word ? (
        <>
          <span
            aria-hidden
            className={cn(
              "size-2 rounded-full",
              status === "live" ? "bg-emerald-500" : status === "stopped" ? "bg-destructive" : "bg-amber-500",
            )}
          />
          <span>{word}</span>
        </>
      ) : null}
    </p>
  );
}
