// Usage this month (GET /api/usage-stats): calls, minutes, and agents and numbers against their limits.
import { Bot, Clock, Phone, PhoneCall, type LucideIcon } from "lucide-react";
import { formatCount } from "@shared/format";
import { AGENT_TEXT } from "@shared/messages";
import type { UsageStats } from "@shared/schemas/agents";
import { useUsageStats } from "@web/api/usage-stats";
import { Skeleton } from "@web/components/ui/skeleton";

const withLimit = (n: number, limit: number | null) => (limit == null ? formatCount(n) : `${formatCount(n)} / ${formatCount(limit)}`);
const minutes = (n: number) => n.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

const TILES: { label: string; icon: LucideIcon; value: (s: UsageStats) => string }[] = [
  { label: AGENT_TEXT.callsThisMonth, icon: PhoneCall, value: (s) => formatCount(s.callsThisMonth) },
  { label: AGENT_TEXT.minutesThisMonth, icon: Clock, value: (s) => minutes(s.minutesThisMonth) },
  { label: AGENT_TEXT.agentsUsage, icon: Bot, value: (s) => withLimit(s.agents, s.agentLimit) },
  { label: AGENT_TEXT.numbersUsage, icon: Phone, value: (s) => withLimit(s.numbers, s.numberLimit) },
];

export function UsageSummary() {
  const usage = useUsageStats();
  return (
    <section aria-label={AGENT_TEXT.usageTitle} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {TILES.map(({ label, icon: Icon, value }) => (
        <div key={label} className="flex items-center gap-3 rounded-xl border border-border bg-card p-3 shadow-sm sm:p-4">
          <span className="hidden size-9 shrink-0 place-items-center rounded-lg bg-secondary text-secondary-foreground sm:grid" aria-hidden>
            <Icon className="size-4" />
          </span>
          <div className="min-w-0">
            <p className="truncate text-xs text-muted-foreground">{label}</p>
            {usage.data ? (
              <p className="text-lg font-semibold tabular-nums">{value(usage.data)}</p>
            ) : usage.isError ? (
              <p className="text-lg font-semibold" title={AGENT_TEXT.usageFailed}>
                -
              </p>
            ) : (
              <Skeleton className="mt-1 h-6 w-14" />
            )}
          </div>
        </div>
      ))}
    </section>
  );
}
