// The four statistics (docs/product/screens-and-routes.md#route-table): Total Users, Total Assistants, Total Calls, Total Minutes (one decimal).
import { Bot, Clock, PhoneCall, Users } from "lucide-react";
import { formatCount, formatDecimal } from "@shared/format";
import { ADMIN_TEXT } from "@shared/messages";
import { Card, CardContent } from "@web/components/ui/card";
import { LoadingStatus, Skeleton } from "@web/components/ui/skeleton";
import { useAdminStats } from "../api/admin";

const oneDecimal = (n: number) => formatDecimal(n, 1);

export function StatCards() {
  const stats = useAdminStats();
  const cards = [
    { label: ADMIN_TEXT.totalUsers, icon: Users, value: stats.data ? formatCount(stats.data.total_users) : null },
    { label: ADMIN_TEXT.totalAssistants, icon: Bot, value: stats.data ? formatCount(stats.data.total_assistants) : null },
    { label: ADMIN_TEXT.totalCalls, icon: PhoneCall, value: stats.data ? formatCount(stats.data.total_calls) : null },
    { label: ADMIN_TEXT.totalMinutes, icon: Clock, value: stats.data ? oneDecimal(stats.data.total_minutes) : null },
  ];
  return (
    <section aria-label="Statistics" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {stats.isPending ? <LoadingStatus label="Loading statistics" /> : null}
      {cards.map(({ label, icon: Icon, value }) => (
        <Card key={label}>
          <CardContent className="flex items-start justify-between gap-2 p-4 sm:p-5">
            <div className="min-w-0">
              <p className="text-sm text-muted-foreground">{label}</p>
              {value !== null ? (
                <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid={`stat-${label}`}>
                  {value}
                </p>
              ) : stats.isError ? (
                <p className="mt-1 text-sm text-destructive">{ADMIN_TEXT.statsFailed}</p>
              ) : (
                <Skeleton className="mt-2 h-7 w-20" />
              )}
            </div>
            <Icon className="size-5 shrink-0 text-primary" aria-hidden />
          </CardContent>
        </Card>
      ))}
    </section>
  );
}
