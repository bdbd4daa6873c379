// Test call (docs/product/README.md#states-and-flows, docs/product/api.md#dashboard-counts): the agent calls a number, and the call's status is shown here as it
// changes. The live feed brings each change as it happens; while the feed is not connected, call logs
// and usage stats are polled every 5 s for 30 s instead.
import { planErrorDescription } from "@web/components/plans/plan-error";
import { PhoneOutgoing } from "lucide-react";
import { useEffect, useId, useState, type FormEvent } from "react";
import { TEST_CALL_POLL } from "@shared/constants";
import { formatDuration, formatPhone, formatTimestamp } from "@shared/format";
import { AGENT_API_TEXT, AGENT_TEXT } from "@shared/messages";
import { normalizeDialNumber } from "@shared/agents";
import { Button } from "@web/components/ui/button";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Spinner } from "@web/components/ui/spinner";
import { toast } from "@web/lib/toast-store";
import { useRecentCalls } from "@web/api/call-logs";
import { useLiveCallLogs } from "@web/api/call-logs-live";
import { useUsageStats } from "@web/api/usage-stats";
import { CallStatusBadge } from "@web/components/calls/call-status-badge";
import { useTriggerCall } from "../api/trigger-call";

/** Statuses after which nothing about the call changes any more. */
const FINISHED = new Set(["completed", "ended", "failed", "busy", "no-answer", "canceled"]);

export function TestCall({ agentId }: { agentId: number }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const [number, setNumber] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [callId, setCallId] = useState<string | null>(null);
  const [polling, setPolling] = useState(false);
  const trigger = useTriggerCall();

  // The polling window closes on its own after TEST_CALL_POLL.durationMs.
  useEffect(() => {
    if (!polling) return;
    const timer = setTimeout(() => setPolling(false), TEST_CALL_POLL.durationMs);
    return () => clearTimeout(timer);
  }, [polling, callId]);

  // The feed opens once a call has been placed; its calls land in the recent calls read below, and
  // the month's usage is read again after them.
  const following = useLiveCallLogs(callId !== null) === "live";
  const refetchInterval = polling && !following ? TEST_CALL_POLL.intervalMs : false;
  const calls = useRecentCalls({ enabled: callId !== null, refetchInterval });
  // Polled for the same window (docs/product/README.md#states-and-flows); the numbers above the agents read this query.
  useUsageStats({ refetchInterval });

  const call = calls.data?.logs.find((l) => l.call_id === callId) ?? null;
  const finished = call !== null && FINISHED.has(call.status.toLowerCase());

  async function submit(e: FormEvent) {
    e.preventDefault();
    const phoneNumber = normalizeDialNumber(number);
    if (!phoneNumber) {
      setError(AGENT_API_TEXT.invalidPhone);
      return;
    }
    setError(null);
    try {
      const answer = await trigger.mutateAsync({ phoneNumber, agentId });
      toast({ title: AGENT_TEXT.testCallStarted });
      setCallId(answer.callId);
      setPolling(true);
      void calls.refetch();
    } catch (err) {
      toast({ variant: "destructive", title: AGENT_TEXT.triggerFailed, description: planErrorDescription(err) });
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-3 rounded-lg border border-border bg-muted/40 p-4">
      <div>
        <h3 id={`${id}-title`} className="text-sm font-semibold">
          {AGENT_TEXT.testCallTitle}
        </h3>
        <p id={hintId} className="text-xs text-muted-foreground">
          {AGENT_TEXT.testCallHint}
        </p>
      </div>
      <form noValidate onSubmit={submit} className="grid gap-2">
        <Label htmlFor={id}>{AGENT_TEXT.testCallNumberLabel}</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={id}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="+15551234567"
            value={number}
            onChange={(e) => {
              setNumber(e.target.value);
              if (error) setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={[error ? errorId : null, hintId].filter(Boolean).join(" ")}
            className="sm:max-w-xs"
          />
          <Button type="submit" disabled={trigger.isPending || number.trim() === ""}>
            {trigger.isPending ? (
              <Spinner className="size-4 text-primary-foreground" label={AGENT_TEXT.testCallButton} />
            ) : (
              <PhoneOutgoing aria-hidden />
            )}
            {AGENT_TEXT.testCallButton}
          </Button>
        </div>
        {error ? (
          <p id={errorId} className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </form>
      {callId ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" aria-live="polite" data-testid="latest-test-call">
          <span className="font-medium">{AGENT_TEXT.latestCall}:</span>
          {call ? (
            <>
              <CallStatusBadge status={call.status} />
              <span className="text-muted-foreground">{formatPhone(call.phone_number)}</span>
              <span className="text-muted-foreground">{formatTimestamp(call.start_time)}</span>
              {call.duration > 0 ? <span className="text-muted-foreground">{formatDuration(call.duration)}</span> : null}
            </>
          ) : (
            <span className="text-muted-foreground">{AGENT_TEXT.waitingForCall}</span>
          )}
          {(polling || following) && !finished ? (
            <Spinner className="size-4" label={AGENT_TEXT.waitingForCall} />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
