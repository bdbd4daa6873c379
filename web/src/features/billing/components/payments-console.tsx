// /payments (docs/product/screens-and-routes.md#route-table, docs/product/api.md#api): the card-payment test console, for admins. One-Time Payment opens a
// checkout for a price, Subscriptions lists and creates them for a customer, Customer Management
// creates customers; the configuration card says which billing adapter runs.
import { useState, type FormEvent } from "react";
import { PAYMENT_TEXT, SETTINGS_TEXT, SUBSCRIPTION_TEXT } from "@shared/messages";
import type { SubscriptionView } from "@shared/schemas/billing";
import { cancelSubscription, formatAmount, getCustomerSubscriptions, useBillingConfig, useProducts } from "@web/api/billing";
import { PageHeader } from "@web/components/layout/page-header";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { Field, FormField } from "@web/components/ui/form-field";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@web/components/ui/tabs";
import { toast } from "@web/lib/toast-store";
import { errorMessage } from "@web/lib/api";
import { createCheckoutSession } from "../api/checkout";
import { createCustomer, createSubscription } from "../api/payments-console";

function PriceSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const products = useProducts();
  return (
    <Field label={SUBSCRIPTION_TEXT.price}>
      {(control) => (
        <select {...control} value={value} onChange={(e) => onChange(e.target.value)} className="h-10 rounded-md border bg-background px-3 text-sm">
          <option value="">{SUBSCRIPTION_TEXT.choosePrice}</option>
          {products.data?.flatMap((p) =>
            p.prices.map((pr) => (
              <option key={pr.id} value={pr.id}>
                {p.name} · {pr.interval === "year" ? "Annual" : "Monthly"} · {formatAmount(pr.unit_amount, pr.currency)}
              </option>
            )),
          )}
        </select>
      )}
    </Field>
  );
}

function OneTimePayment() {
  const [priceId, setPriceId] = useState("");
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const origin = window.location.origin;
      const { url } = await createCheckoutSession({
        priceId,
        quantity: 1,
        successUrl: `${origin}/payments/success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${origin}/payments/cancel`,
        customerEmail: email || undefined,
      });
      window.location.assign(url);
    } catch (err) {
      toast({ variant: "destructive", title: PAYMENT_TEXT.checkoutFailed, description: errorMessage(err, PAYMENT_TEXT.checkoutFailed) });
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="grid max-w-md gap-4">
      <PriceSelect value={priceId} onChange={setPriceId} />
      <FormField label={SUBSCRIPTION_TEXT.customerEmail} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <Button type="submit" disabled={!priceId || busy}>
        {SUBSCRIPTION_TEXT.pay}
      </Button>
    </form>
  );
}

function SubscriptionsTab() {
  const [customerId, setCustomerId] = useState("");
  const [priceId, setPriceId] = useState("");
  const [list, setList] = useState<SubscriptionView[] | null>(null);
  const load = async () => {
    try {
      setList(await getCustomerSubscriptions(customerId.trim()));
    } catch (err) {
      toast({ variant: "destructive", title: SUBSCRIPTION_TEXT.loadFailed, description: errorMessage(err, SUBSCRIPTION_TEXT.loadFailed) });
    }
  };
  const create = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await createSubscription({ customerId: customerId.trim(), priceId });
      toast({ title: SUBSCRIPTION_TEXT.subscriptionCreated });
      await load();
    } catch (err) {
      toast({ variant: "destructive", title: PAYMENT_TEXT.subscriptionFailed, description: errorMessage(err, PAYMENT_TEXT.subscriptionFailed) });
    }
  };
  const cancel = async (id: string) => {
    try {
      await cancelSubscription(id);
      await load();
    } catch {
      toast({ variant: "destructive", title: SETTINGS_TEXT.cancelFailed });
    }
  };
  return (
    <div className="grid gap-6">
      <form onSubmit={create} className="grid max-w-md gap-4">
        <FormField label={SUBSCRIPTION_TEXT.customerId} value={customerId} onChange={(e) => setCustomerId(e.target.value)} placeholder="cus_…" />
        <PriceSelect value={priceId} onChange={setPriceId} />
        <div className="flex gap-3">
          <Button type="submit" disabled={!customerId.trim() || !priceId}>
            {SUBSCRIPTION_TEXT.createSubscription}
          </Button>
          <Button variant="outline" disabled={!customerId.trim()} onClick={() => void load()}>
            {SUBSCRIPTION_TEXT.loadSubscriptions}
          </Button>
        </div>
      </form>
      {list ? (
        <ul className="grid gap-2 text-sm">
          {list.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center gap-3 rounded-md border p-3">
              <span className="font-mono text-xs">{s.id}</span>
              <Badge>{s.status}</Badge>
              <span>{s.items.data[0]?.price.product.name}</span>
              <span>{formatAmount(s.items.data[0]?.price.unit_amount, s.items.data[0]?.price.currency)}</span>
              {s.status !== "canceled" && !s.cancel_at_period_end ? (
                <Button size="sm" variant="outline" onClick={() => void cancel(s.id)}>
                  {SUBSCRIPTION_TEXT.cancel}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function CustomersTab() {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) {
      toast({ variant: "destructive", title: PAYMENT_TEXT.customerEmailRequired });
      return;
    }
    try {
      const { customer } = await createCustomer({ email: email.trim(), name: name.trim() || undefined });
      setCreated(customer.id);
      toast({ title: SUBSCRIPTION_TEXT.customerCreated, description: customer.id });
    } catch (err) {
      toast({ variant: "destructive", title: PAYMENT_TEXT.customerFailed, description: errorMessage(err, PAYMENT_TEXT.customerFailed) });
    }
  };
  return (
    <form noValidate onSubmit={submit} className="grid max-w-md gap-4">
      <FormField label={SUBSCRIPTION_TEXT.customerEmail} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <FormField label={SUBSCRIPTION_TEXT.customerName} value={name} onChange={(e) => setName(e.target.value)} />
      <Button type="submit">{SUBSCRIPTION_TEXT.createCustomer}</Button>
      {created ? <p className="font-mono text-xs">{created}</p> : null}
    </form>
  );
}

export function PaymentsConsole() {
  const config = useBillingConfig();
  return (
    <div className="max-w-4xl">
      <PageHeader title={SUBSCRIPTION_TEXT.paymentsTitle} />
      <Card className="mb-6">
        <CardHeader>
          <CardTitle>{SUBSCRIPTION_TEXT.configuration}</CardTitle>
        </CardHeader>
        <CardContent className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <span className="text-muted-foreground">{SUBSCRIPTION_TEXT.mode}</span>
          <span>{config.data?.mode ?? "…"}</span>
          <span className="text-muted-foreground">{SUBSCRIPTION_TEXT.publishableKey}</span>
          <span className="font-mono text-xs break-all">{config.data?.publishableKey ?? SUBSCRIPTION_TEXT.notSet}</span>
        </CardContent>
      </Card>
      <Tabs defaultValue="one-time">
        <TabsList>
          <TabsTrigger value="one-time">{SUBSCRIPTION_TEXT.oneTime}</TabsTrigger>
          <TabsTrigger value="subscriptions">{SUBSCRIPTION_TEXT.subscriptions}</TabsTrigger>
          <TabsTrigger value="customers">{SUBSCRIPTION_TEXT.customers}</TabsTrigger>
        </TabsList>
        <TabsContent value="one-time" className="pt-4">
          <OneTimePayment />
        </TabsContent>
        <TabsContent value="subscriptions" className="pt-4">
          <SubscriptionsTab />
        </TabsContent>
        <TabsContent value="customers" className="pt-4">
          <CustomersTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
