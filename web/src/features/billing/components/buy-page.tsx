// /buy (docs/product/dashboard-and-counts.md#sections-and-who-sees-them, docs/product/screens-and-routes.md#route-table and §9): Monthly / Annual with 'Save 10%', a card per plan with its
// features, 'Most Popular' on pro; select a plan, then Continue (or start the 7-day trial, offered
// only to a visitor: a trial makes a new account, so a signed-in account could not start one).
import { Link, useNavigate } from "@tanstack/react-router";
import { Check } from "lucide-react";
import { useState } from "react";
import { AUTH_TEXT, BUY_TEXT, PAGE_TEXT, PLAN_TEXT } from "@shared/messages";
import type { ProductView } from "@shared/schemas/billing";
import { formatAmount, useProducts } from "@web/api/billing";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { useAuth } from "@web/lib/auth/auth-provider";
import { cn } from "@web/lib/utils";

type Interval = "month" | "year";

export function BuyPage({ email }: { email?: string }) {
  const products = useProducts();
  const navigate = useNavigate();
  const signedIn = useAuth().user !== null;
  const [interval, setInterval] = useState<Interval>("month");
  const [selected, setSelected] = useState<string | null>(null);
  const priceOf = (p: ProductView) => p.prices.find((pr) => pr.interval === interval && pr.active) ?? null;
  const chosen = products.data?.find((p) => p.id === selected) ?? null;
  const chosenPrice = chosen ? priceOf(chosen) : null;

  const go = (trial: boolean) => {
    if (!chosenPrice) return;
    void navigate({ to: "/checkout", search: { priceId: chosenPrice.id, interval, email, ...(trial ? { trial: 1 as const } : {}) } });
  };

  return (
    <div>
      <h1 className="text-3xl font-semibold tracking-tight">{PAGE_TEXT.choosePlan}</h1>
      {email ? (
        <p className="mt-2 text-muted-foreground">
          {PAGE_TEXT.plansFor} <span className="font-medium break-all text-foreground">{email}</span>
        </p>
      ) : null}
      <div role="radiogroup" aria-label={BUY_TEXT.billingPeriod} className="mt-6 inline-flex rounded-lg border bg-muted p-1">
        {(["month", "year"] as const).map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={interval === value}
            onClick={() => setInterval(value)}
            className={cn(
              "inline-flex items-center gap-2 rounded-md px-4 py-1.5 text-sm font-medium focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
              interval === value ? "bg-background shadow-sm" : "text-muted-foreground",
            )}
          >
            {value === "month" ? BUY_TEXT.monthly : BUY_TEXT.annual}
            {value === "year" ? <Badge variant="success">{BUY_TEXT.save}</Badge> : null}
          </button>
        ))}
      </div>

      {products.isPending ? (
        <div className="mt-10 flex justify-center">
          <Spinner label={BUY_TEXT.loading} />
        </div>
      ) : products.isError ? (
        <div role="alert" className="mt-8 rounded-lg border border-destructive/40 bg-destructive/5 p-4">
          <p className="font-medium text-destructive">{BUY_TEXT.loadFailed}</p>
          <Button variant="outline" className="mt-3" onClick={() => void products.refetch()}>
            {BUY_TEXT.retry}
          </Button>
        </div>
      ) : products.data.length === 0 ? (
        <p className="mt-8 text-muted-foreground">{BUY_TEXT.noPlans}</p>
      ) : (
        <div className="mt-8 grid gap-6 md:grid-cols-2">
          {products.data.map((product) => {
            const price = priceOf(product);
            const type = product.metadata.product_type;
            const isSelected = selected === product.id;
            return (
              <Card key={product.id} className={cn("relative flex flex-col", isSelected && "ring-2 ring-primary")} data-testid={`plan-${type}`}>
                {type === "pro" ? <Badge className="absolute -top-3 right-4 bg-primary text-primary-foreground">{BUY_TEXT.mostPopular}</Badge> : null}
                <CardHeader>
                  <CardTitle className="text-xl">{product.name}</CardTitle>
                  {product.description ? <CardDescription>{product.description}</CardDescription> : null}
                </CardHeader>
                <CardContent className="flex flex-1 flex-col gap-4">
                  <p>
                    <span className="text-3xl font-semibold">{price ? formatAmount(price.unit_amount, price.currency) : "–"}</span>
                    <span className="text-muted-foreground">{interval === "month" ? BUY_TEXT.perMonth : BUY_TEXT.perYear}</span>
                  </p>
                  <ul className="grid gap-2 text-sm">
                    {PLAN_TEXT.features[type].map((f) => (
                      <li key={f} className="flex items-center gap-2">
                        <Check className="size-4 text-primary" aria-hidden />
                        {f}
                      </li>
                    ))}
                  </ul>
                  <Button
                    className="mt-auto"
                    variant={isSelected ? "default" : "outline"}
                    aria-pressed={isSelected}
                    disabled={!price}
                    onClick={() => setSelected(product.id)}
                  >
                    {isSelected ? BUY_TEXT.selected : BUY_TEXT.select}
                  </Button>
                </CardContent>
              </Card>
            );
          })}
        </div>
      )}

      <div className="mt-8 flex flex-col items-stretch gap-3 sm:flex-row sm:items-center">
        <Button size="lg" disabled={!chosenPrice} onClick={() => go(false)}>
          {BUY_TEXT.continue}
        </Button>
        {signedIn ? null : (
          <>
            <Button size="lg" variant="outline" disabled={!chosenPrice} onClick={() => go(true)}>
              {BUY_TEXT.startTrial}
            </Button>
            <p className="text-sm text-muted-foreground">{BUY_TEXT.trialNote}</p>
          </>
        )}
      </div>
      {signedIn ? null : (
        <p className="mt-6 text-sm">
          <Link to="/auth" search={{ login: 1 }} className="text-primary underline-offset-4 hover:underline">
            {AUTH_TEXT.planLoginLink}
          </Link>
        </p>
      )}
    </div>
  );
}
