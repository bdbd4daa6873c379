// Placeholder shapes shown while data loads, and the one line screen readers hear instead of them.
import type { ComponentProps } from "react";
import { cn } from "@web/lib/utils";

export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return <div aria-hidden className={cn("animate-pulse rounded bg-muted", className)} {...props} />;
}

/** What is loading, announced once; the skeleton shapes beside it are hidden from assistive technology. */
export function LoadingStatus({ label }: { label: string }) {
  return (
    <span className="sr-only" role="status">
      {label}
    </span>
  );
}
