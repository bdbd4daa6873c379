// The header's bell (decision 071): the unread count, and on opening the latest firings and
// resolutions, each linking to the Alerts page; opening it marks them read.
import { Link } from "@tanstack/react-router";
import { Bell } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { ALERT_TEXT } from "@shared/messages";
import { useAlertBell, useReadAlertBell } from "@web/api/alert-bell";
import { Button } from "@web/components/ui/button";
import { cn } from "@web/lib/utils";

/** `align`: the list opens from the bell's start (the sidebar) or its end (the phone's top bar, at the screen's edge). */
export function AlertBell({ onNavigate, align = "start" }: { onNavigate?: () => void; align?: "start" | "end" }) {
  const bell = useAlertBell();
  const read = useReadAlertBell();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const box = useRef<HTMLDivElement>(null);
  const unread = bell.data?.unread ?? 0;

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  const toggle = () => {
    const next = !open;
    setOpen(next);
    if (next && unread > 0) read.mutate();
  };

  return (
    <div ref={box} className="relative">
      <Button
        variant="ghost"
        size="icon"
        aria-label={unread > 0 ? `${ALERT_TEXT.bell} (${unread} unread)` : ALERT_TEXT.bell}
        aria-expanded={open}
        aria-controls={listId}
        onClick={toggle}
        data-testid="alert-bell"
      >
        <Bell aria-hidden />
        {unread > 0 ? (
          <span data-testid="alert-bell-count" className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-destructive px-1 text-center text-xs leading-5 font-semibold text-white">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </Button>
      {open ? (
        <div id={listId} role="region" aria-label={ALERT_TEXT.bell} className={cn("absolute z-50 mt-2 w-80 max-w-[calc(100vw-2rem)] rounded-md border bg-popover p-2 text-popover-foreground shadow-lg", align === "end" ? "right-0" : "left-0")}>
          {bell.data && bell.data.notifications.length > 0 ? (
            <ul className="grid max-h-96 gap-1 overflow-y-auto">
              {bell.data.notifications.map((n) => (
                <li key={n.id}>
                  <Link
                    to="/alerts"
                    onClick={() => {
                      setOpen(false);
                      onNavigate?.();
                    }}
                    className={cn("block rounded px-2 py-1.5 text-sm hover:bg-accent", !n.readAt && "font-medium")}
                  >
                    <span className={cn("mr-2 inline-block size-2 rounded-full", n.kind === "resolved" ? "bg-emerald-500" : n.severity === "critical" ? "bg-destructive" : "bg-amber-500")} aria-hidden />
                    {n.title}
                    <span className="block text-xs text-muted-foreground">{new Date(n.createdAt).toLocaleString()}</span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="px-2 py-1.5 text-sm text-muted-foreground">{ALERT_TEXT.bellEmpty}</p>
          )}
        </div>
      ) : null}
    </div>
  );
}
