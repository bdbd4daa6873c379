// How many numbers the account holds against its limit (docs/product/constants.md#business-constants): green below 80 %,
// yellow from 80 %, red at the limit.
import { PHONE_TEXT } from "@shared/messages";
import { usageLevel } from "@shared/usage";
import { USAGE_INDICATOR } from "@web/components/usage/usage-colours";
import { Progress } from "@web/components/ui/progress";
import { cn } from "@web/lib/utils";

export function UsageBar({ count, limit, className }: { count: number; limit: number; className?: string }) {
  const level = usageLevel(count, limit);
  return (
    <div className={cn("grid gap-2", className)} data-level={level}>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span id="phone-usage-label" className="font-medium">
          {PHONE_TEXT.usageLabel}
        </span>
        <span className="text-muted-foreground tabular-nums">{PHONE_TEXT.usageCount(count, limit)}</span>
      </div>
      <Progress
        value={count}
        max={limit}
        aria-labelledby="phone-usage-label"
        aria-valuetext={PHONE_TEXT.usageCount(count, limit)}
        indicatorClassName={USAGE_INDICATOR[level]}
      />
      {level === "full" ? (
        <p role="status" className="text-sm font-medium text-destructive">
          {PHONE_TEXT.atLimit}
        </p>
      ) : null}
    </div>
  );
}
