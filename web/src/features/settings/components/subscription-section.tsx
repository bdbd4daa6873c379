// The /settings subscription section (docs/product/screens-and-routes.md#route-table, docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#errors-and-texts): status in its colour, plan, renewal or
// trial end, this month's call minutes against the plan's cap, Upgrade (to the plans) and Cancel (at
// the end of the period), and the provider's portal.
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { SETTINGS_TEXT, SUBSCRIPTION_TEXT } from "@shared/messages";
import { nyDateTime } from "@shared/ny-time";
import { useBillingConfig, useCancelSubscription, useCustomer, useCustomerSubscriptions } from "@web/api/billing";
import { useUsageStats } from "@web/api/usage-stats";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { SubmitButton } from "@web/components/ui/submit-button";
import { MinutesBar } from "@web/components/usage/minutes-bar";
import { toast } from "@web/lib/toast-store";
import { apiJson } from "@web/lib/api";

/** Status colours: active green, canceled red, past_due yellow, other grey (docs/product/README.md#states-and-flows). */
export function statusVariant(status: string) {
  return status === "active" ? "success" : status === "canceled" ? "destructive" : status === "past_due" ? "pending" : "default";
}

const day = (iso: string | null) => (iso ? (nyDateTime(iso) ?? iso).slice(0, 10) : null);

export function SubscriptionSection({ email }: { email: string }) {
  const customer = useCustomer(email);
  const subs = useCustomerSubscriptions(customer.data?.stripe_customer_id);
  const config = useBillingConfig();
  const cancel = useCancelSubscription();
  const usage = useUsageStats();
  const [opening, setOpening] = useState(false);
  const current = subs.data?.find((s) => s.status !== "canceled" && s.status !== "incomplete_expired") ?? subs.data?.[0] ?? null;
  const loading = customer.isPending || (Boolean(customer.data?.stripe_customer_id) && subs.isPending);

  const onCancel = async () => {
    if (!current || current.status === "canceled" || current.cancel_at_period_end) {
      toast({ variant: "destructive", title: SETTINGS_TEXT.noSubscription });
      return;
    }
    try {
      await cancel.mutateAsync(current.id);
      toast({ title: SUBSCRIPTION_TEXT.cancelledTitle, description: SUBSCRIPTION_TEXT.cancelled });
    } catch {
      toast({ variant: "destructive", title: SETTINGS_TEXT.cancelFailed });
    }
  };

  const openPortal = async () => {
    setOpening(true);
    try {
      const { url } = await apiJson("POST", "/api/stripe/portal-session");
      if (url) window.location.assign(url);
    } finally {
      setOpening(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{SETTINGS_TEXT.subscriptionSection}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {loading ? (
          <Spinner label={SUBSCRIPTION_TEXT.status} />
        ) : customer.isError || subs.isError ? (
          <p role="alert" className="text-destructive">{SUBSCRIPTION_TEXT.loadFailed}</p>
        ) : current ? (
          <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2" data-testid="subscription-details">
            <dt className="text-muted-foreground">{SUBSCRIPTION_TEXT.status}</dt>
            <dd>
              <Badge variant={statusVariant(current.status)}>{current.status}</Badge>
              {current.cancel_at_period_end ? <span className="ml-2 text-muted-foreground">{SUBSCRIPTION_TEXT.endsOn} {day(current.current_period_end)}</span> : null}
            </dd>
            <dt className="text-muted-foreground">{SUBSCRIPTION_TEXT.plan}</dt>
            <dd>{current.items.data[0]?.price.product.name}</dd>
            <dt className="text-muted-foreground">{current.status === "trialing" ? SUBSCRIPTION_TEXT.trialEnds : SUBSCRIPTION_TEXT.renews}</dt>
            <dd>{day(current.status === "trialing" ? current.trial_end : current.current_period_end) ?? "–"}</dd>
          </dl>
        ) : (
          <p className="text-muted-foreground">{SUBSCRIPTION_TEXT.none}</p>
        )}
        {usage.data ? <MinutesBar stats={usage.data} className="max-w-md" /> : null}
        <div className="flex flex-wrap gap-3">
          <Button asChild>
            <Link to="/buy" search={{ email }}>
              {SUBSCRIPTION_TEXT.upgrade}
            </Link>
          </Button>
          <SubmitButton type="button" variant="outline" onClick={() => void onCancel()} pending={cancel.isPending} pendingLabel={SUBSCRIPTION_TEXT.cancelling}>
            {SUBSCRIPTION_TEXT.cancel}
          </SubmitButton>
          {config.data?.portal && customer.data?.stripe_customer_id ? (
            <Button variant="ghost" onClick={() => void openPortal()} disabled={opening}>
              {SUBSCRIPTION_TEXT.portal}
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
