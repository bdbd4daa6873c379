// 'My numbers' tab: each number with the agent answering it, or its location, and the
// Assign Agent / Unassign action (docs/product/screens-and-routes.md#route-table, docs/product/README.md#states-and-flows "Number assignment").
import { LoaderCircle, MapPin, Phone, PhoneOff, UserRound } from "lucide-react";
import { useEffect, useState } from "react";
import { formatPhone } from "@shared/format";
import { PHONE_TEXT } from "@shared/messages";
import type { OwnedPhoneNumber } from "@shared/schemas/phone-numbers";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { toast } from "@web/lib/toast-store";
import { errorMessage } from "@web/lib/api";
import { useUnassignNumber } from "@web/api/phone-numbers";
import { useAgents } from "@web/api/agents";
import { useMyNumbers } from "@web/api/phone-numbers";
import { LoadingStatus, Skeleton } from "@web/components/ui/skeleton";
import { AssignAgentDialog } from "./assign-agent-dialog";
import { placeOf } from "./number-results";

function NumberRow({
  number,
  onAssign,
  onUnassign,
  unassigning,
}: {
  number: OwnedPhoneNumber;
  onAssign: () => void;
  onUnassign: () => void;
  unassigning: boolean;
}) {
  const assigned = number.agent_id != null;
  const place = placeOf(number);
  return (
    <li className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
      <div className="flex min-w-0 items-start gap-3">
        <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <Phone className="size-4" aria-hidden />
        </span>
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-medium tabular-nums">{formatPhone(number.phone_number)}</span>
            <Badge variant={assigned ? "success" : "outline"}>{assigned ? PHONE_TEXT.assignedBadge : PHONE_TEXT.unassignedBadge}</Badge>
          </p>
          {assigned ? (
            <p className="mt-1 flex items-center gap-1 text-sm text-muted-foreground">
              <UserRound className="size-3.5 shrink-0" aria-hidden />
              <span className="truncate">
                {PHONE_TEXT.agentPrefix}: <span className="text-foreground">{number.agents?.name ?? PHONE_TEXT.notAssigned}</span>
              </span>
            </p>
          ) : place ? (
            <p className="mt-1 flex items-center gap-1 text-sm text-muted-foreground">
              <MapPin className="size-3.5 shrink-0" aria-hidden />
              <span className="truncate">{place}</span>
            </p>
          ) : null}
        </div>
      </div>
      {assigned ? (
        <Button variant="outline" size="sm" className="self-start sm:self-auto" onClick={onUnassign} disabled={unassigning}>
          {unassigning ? <LoaderCircle className="animate-spin" aria-hidden /> : <PhoneOff aria-hidden />}
          {PHONE_TEXT.unassign}
        </Button>
      ) : (
        <Button size="sm" className="self-start sm:self-auto" onClick={onAssign}>
          <UserRound aria-hidden />
          {PHONE_TEXT.assignAgent}
        </Button>
      )}
    </li>
  );
}

function ListSkeleton() {
  return (
    <Card aria-busy="true">
      <CardContent className="grid gap-4 p-6">
        <LoadingStatus label={PHONE_TEXT.loading} />
        {Array.from({ length: 3 }, (_, i) => (
          <div key={i} className="flex items-center gap-3">
            <Skeleton className="size-9 rounded-full" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-3 w-28" />
            </div>
          </div>
        ))}
      </CardContent>
    </Card>
  );
}

export function MyNumbers({ userId }: { userId: string }) {
  const numbers = useMyNumbers();
  const agents = useAgents(userId);
  const unassign = useUnassignNumber();
  const [assigning, setAssigning] = useState<OwnedPhoneNumber | null>(null);

  useEffect(() => {
    if (numbers.isError) toast({ variant: "destructive", title: PHONE_TEXT.loadFailed, description: errorMessage(numbers.error, PHONE_TEXT.loadFailed) });
  }, [numbers.isError, numbers.error]);
  useEffect(() => {
    if (agents.isError) toast({ variant: "destructive", title: PHONE_TEXT.agentsLoadFailed, description: errorMessage(agents.error, PHONE_TEXT.agentsLoadFailed) });
  }, [agents.isError, agents.error]);

  async function onUnassign(number: OwnedPhoneNumber) {
    try {
      await unassign.mutateAsync({ phoneNumberId: number.id });
      toast({ title: PHONE_TEXT.unassignedTitle, description: formatPhone(number.phone_number) });
    } catch (err) {
      toast({ variant: "destructive", title: PHONE_TEXT.unassignFailed, description: errorMessage(err, PHONE_TEXT.unassignFailed) });
    }
  }

  if (numbers.isPending) return <ListSkeleton />;
  if (numbers.isError) {
    return (
      <Card>
        <CardContent className="flex flex-col items-start gap-3 p-6">
          <p role="alert" className="text-sm font-medium text-destructive">
            {PHONE_TEXT.loadFailed}
          </p>
          <Button variant="outline" size="sm" onClick={() => void numbers.refetch()}>
            {PHONE_TEXT.retry}
          </Button>
        </CardContent>
      </Card>
    );
  }
  if (numbers.data.numbers.length === 0) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-2 p-10 text-center">
          <Phone className="size-8 text-primary" aria-hidden />
          <p className="font-medium">{PHONE_TEXT.noNumbers}</p>
          <p className="text-sm text-muted-foreground">{PHONE_TEXT.noNumbersHint}</p>
        </CardContent>
      </Card>
    );
  }

  return (
    <>
      <Card>
        <ul className="divide-y divide-border" aria-label={PHONE_TEXT.myNumbers}>
          {numbers.data.numbers.map((n) => (
            <NumberRow
              key={n.id}
              number={n}
              onAssign={() => setAssigning(n)}
              onUnassign={() => void onUnassign(n)}
              unassigning={unassign.isPending && unassign.variables?.phoneNumberId === n.id}
            />
          ))}
        </ul>
      </Card>
      <AssignAgentDialog number={assigning} agents={agents.data?.agents} agentsLoading={agents.isPending} onClose={() => setAssigning(null)} />
    </>
  );
}
