// This month's call minutes against the plan's cap (docs/product/constants.md#business-constants usage colours: green below 80 %,
// yellow from 80 %, red at the limit), from GET /api/usage-stats: on the Agents page's minutes figure
// and in Settings. Without a plan there is no cap: the minutes alone, and why there are none.
import { useId } from "react";
import { formatDecimal } from "@shared/format";
import { MINUTES_TEXT } from "@shared/messages";
import type { UsageStats } from "@shared/schemas/agents";
import { usageLevel, wholeMinutes } from "@shared/usage";
import { Progress } from "@web/components/ui/progress";
import { cn } from "@web/lib/utils";
import { USAGE_INDICATOR } from "./usage-colours";

export function MinutesBar({ stats, showLabel = true, className }: { stats: Pick<UsageStats, "minutesThisMonth" | "minuteLimit">; showLabel?: boolean; className?: string }) {
  const labelId = useId();
  const { minutesThisMonth: minutes, minuteLimit: limit } = stats;
  if (limit === null) {
    return (
      <div className={cn("grid gap-1 text-sm", className)} data-testid="minutes-usage">
        {showLabel ? <span className="font-medium">{MINUTES_TEXT.label}</span> : null}
        <span className="tabular-nums">{formatDecimal(minutes, 1)}</span>
        <span className="text-xs text-muted-foreground">{MINUTES_TEXT.noPlan}</span>
      </div>
    );
  }
  const level = usageLevel(wholeMinutes(minutes), limit);
  const text = MINUTES_TEXT.usedOf(minutes, limit);
  return (
    <div className={cn("grid gap-1.5", className)} data-testid="minutes-usage" data-level={level}>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span id={labelId} className={cn("font-medium", !showLabel && "sr-only")}>
          {MINUTES_TEXT.label}
        </span>
        {showLabel ? <span className="text-muted-foreground tabular-nums">{text}</span> : null}
      </div>
      <Progress value={Math.min(minutes, limit)} max={limit} aria-labelledby={labelId} aria-valuetext={text} className="h-1.5" indicatorClassName={USAGE_INDICATOR[level]} />
      {level !== "ok" ? (
        <p role="status" className={cn("text-xs font-medium", level === "full" ? "text-destructive" : "text-foreground")}>
          {level === "full" ? MINUTES_TEXT.full(limit) : MINUTES_TEXT.warning(limit)}
        </p>
      ) : null}
    </div>
  );
}
