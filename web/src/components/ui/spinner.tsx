import { LoaderCircle } from "lucide-react";
import { cn } from "@web/lib/utils";

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <LoaderCircle className={cn("size-5 animate-spin text-primary", className)} aria-hidden />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Centered spinner for a whole page or panel while something loads. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-[50vh] w-full items-center justify-center">
      <Spinner className="size-8" label={label} />
    </div>
  );
}
