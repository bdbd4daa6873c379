// A determinate progress bar with the ARIA values a screen reader announces.
import type { ComponentProps } from "react";
import { cn } from "@web/lib/utils";

type ProgressProps = Omit<ComponentProps<"div">, "children"> & {
  value: number;
  max?: number;
  /** Classes of the filled part (its colour). */
  indicatorClassName?: string;
};

export function Progress({ value, max = 100, className, indicatorClassName, ...props }: ProgressProps) {
  const safeMax = max > 0 ? max : 1;
  const clamped = Math.min(Math.max(value, 0), safeMax);
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={safeMax}
      aria-valuenow={clamped}
      className={cn("relative h-2.5 w-full overflow-hidden rounded-full bg-muted", className)}
      {...props}
    >
      <div
        className={cn("h-full rounded-full bg-primary transition-[width] duration-300", indicatorClassName)}
        style={{ width: `${(clamped / safeMax) * 100}%` }}
      />
    </div>
  );
}
