// This month's usage (GET /api/usage-stats) as figure tiles: the Agents screen shows all four, Call
// Logs the calls and minutes. One query behind both, so one refresh updates every screen. The minutes
// are shown against the plan's cap, with its bar in the usage colours.
import { Bot, Clock, Phone, PhoneCall, type LucideIcon } from "lucide-react";
import { formatCount, formatDecimal } from "@shared/format";
import { AGENT_TEXT } from "@shared/messages";
import type { UsageStats } from "@shared/schemas/agents";
import { useUsageStats } from "@web/api/usage-stats";
import { Skeleton } from "@web/components/ui/skeleton";
import { cn } from "@web/lib/utils";
import { MinutesBar } from "./minutes-bar";

const withLimit = (n: number, limit: number | null) => (limit == null ? formatCount(n) : `${formatCount(n)} / ${formatCount(limit)}`);
const minutes = (n: number) => formatDecimal(n, 1);

const FIGURES = {
  calls: { label: AGENT_TEXT.callsThisMonth, icon: PhoneCall, value: (s: UsageStats) => formatCount(s.callsThisMonth) },
  minutes: { label: AGENT_TEXT.minutesThisMonth, icon: Clock, value: (s: UsageStats) => (s.minuteLimit == null ? minutes(s.minutesThisMonth) : `${minutes(s.minutesThisMonth)} / ${formatCount(s.minuteLimit)}`) },
  agents: { label: AGENT_TEXT.agentsUsage, icon: Bot, value: (s: UsageStats) => withLimit(s.agents, s.agentLimit) },
  numbers: { label: AGENT_TEXT.numbersUsage, icon: Phone, value: (s: UsageStats) => withLimit(s.numbers, s.numberLimit) },
} satisfies Record<string, { label: string; icon: LucideIcon; value: (s: UsageStats) => string }>;

export type UsageFigure = keyof typeof FIGURES;

const ALL: UsageFigure[] = ["calls", "minutes", "agents", "numbers"];

export function UsageFigures({ figures = ALL, className }: { figures?: UsageFigure[]; className?: string }) {
  const usage = useUsageStats();
  return (
    <section aria-label={AGENT_TEXT.usageTitle} className={cn("grid grid-cols-2 gap-3", className)}>
      {figures.map((figure) => {
        const { label, icon: Icon, value } = FIGURES[figure];
        return (
          <div key={figure} className="flex items-center gap-3 rounded-xl border border-border bg-card p-3 shadow-sm sm:p-4">
            <span className="hidden size-9 shrink-0 place-items-center rounded-lg bg-secondary text-secondary-foreground sm:grid" aria-hidden>
              <Icon className="size-4" />
            </span>
            <div className="min-w-0 flex-1">
              <p className="truncate text-xs text-muted-foreground">{label}</p>
              {usage.data ? (
                <>
                  <p className="text-lg font-semibold tabular-nums">{value(usage.data)}</p>
                  {figure === "minutes" && usage.data.minuteLimit != null ? <MinutesBar stats={usage.data} showLabel={false} className="mt-1" /> : null}
                </>
              ) : usage.isError ? (
                <p className="text-lg font-semibold" title={AGENT_TEXT.usageFailed}>
                  -
                </p>
              ) : (
                <Skeleton className="mt-1 h-6 w-14" />
              )}
            </div>
          </div>
        );
      })}
      {figures.includes("calls") ? <p className="col-span-full text-xs text-muted-foreground">{AGENT_TEXT.usageScope}</p> : null}
    </section>
  );
}
