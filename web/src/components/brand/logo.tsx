import { AudioLines } from "lucide-react";
import { APP_NAME } from "@web/lib/document-title";
import { cn } from "@web/lib/utils";

/** The product mark: a sound-wave glyph on the brand colour, with the name beside it. */
export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn("inline-flex items-center gap-2 font-semibold tracking-tight", className)}>
      <span
        className={cn(
          "grid size-8 place-items-center rounded-lg",
          inverted ? "bg-white/15 text-white" : "bg-primary text-primary-foreground",
        )}
        aria-hidden
      >
        <AudioLines className="size-4.5" />
      </span>
      <span>{APP_NAME}</span>
    </span>
  );
}
