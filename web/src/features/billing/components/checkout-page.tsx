// /checkout (docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#validation-messages): the chosen plan, the lead form, then a 7-day trial or a payment session
// (to the payment page after 1 s). The lead is recorded only once the trial or the session has been
// started, so a refused start leaves none. A trial's visitor is not signed in yet: the page then says
// to activate the account from the mailed link (the dashboard would only send them to sign in); a
// signed-in account is not offered a trial, which is for new accounts.
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useState, type FormEvent } from "react";
import { CHECKOUT_TEXT, PAYMENT_TEXT } from "@shared/messages";
import { leadFormSchema, type LeadBody } from "@shared/schemas/billing";
import { formatAmount, useProducts } from "@web/api/billing";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { FormField } from "@web/components/ui/form-field";
import { Spinner } from "@web/components/ui/spinner";
import { SubmitButton } from "@web/components/ui/submit-button";
import { errorMessage } from "@web/lib/api";
import { useAuth } from "@web/lib/auth/auth-provider";
import { createCheckoutSession, startTrial, submitLead } from "../api/checkout";
import type { CheckoutSearch } from "../checkout-search";

type Values = { first_name: string; last_name: string; email: string; phone: string; company: string; quantity: string };
type Errors = Partial<Record<keyof Values, string>>;

/** The lead of a trial or session that has started: failing to record it does not undo the start. */
async function recordLead(lead: LeadBody) {
  try {
    await submitLead(lead);
  } catch {
    // The trial or the payment session exists either way; the visitor goes on.
  }
}

export const TRIAL_REDIRECT_MS = 2000;
export const PAYMENT_REDIRECT_MS = 1000;

/** A card that says why checkout cannot go on, with the way back to the plans. */
function BackToPlans({ title, text, email }: { title: string; text: string; email: CheckoutSearch["email"] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1">{title}</CardTitle>
        <CardDescription>{text}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <Link to="/buy" search={{ email }}>
            {CHECKOUT_TEXT.backToPlans}
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

export function CheckoutPage({ search }: { search: CheckoutSearch }) {
  const products = useProducts();
  const navigate = useNavigate();
  const auth = useAuth();
  const trial = search.trial === 1;
  const [values, setValues] = useState<Values>({ first_name: "", last_name: "", email: search.email ?? "", phone: "", company: "", quantity: "1" });
  const [errors, setErrors] = useState<Errors>({});
  const [summary, setSummary] = useState<string | null>(null);
  const [state, setState] = useState<"form" | "submitting" | "success">("form");
  const [redirect, setRedirect] = useState<string | null>(null);

  useEffect(() => {
    if (!redirect) return;
    const timer = setTimeout(
      () => (redirect.startsWith("/") && !redirect.startsWith("//") ? void navigate({ to: redirect }) : window.location.assign(redirect)),
      trial ? TRIAL_REDIRECT_MS : PAYMENT_REDIRECT_MS,
    );
    return () => clearTimeout(timer);
  }, [redirect, trial, navigate]);

  if (products.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label={CHECKOUT_TEXT.loading} />
      </div>
    );
  }
  if (trial && auth.user) {
    return <BackToPlans title={CHECKOUT_TEXT.trialTitle} text={CHECKOUT_TEXT.trialSignedIn} email={search.email} />;
  }
  const product = products.data?.find((p) => p.prices.some((pr) => pr.id === search.priceId));
  const price = product?.prices.find((pr) => pr.id === search.priceId);
  if (products.isError || !product || !price || !product.active || !price.active) {
    return <BackToPlans title={CHECKOUT_TEXT.productUnavailable} text={CHECKOUT_TEXT.productUnavailableText} email={search.email} />;
  }

  const set = (key: keyof Values) => (e: { target: { value: string } }) => {
    // The phone keeps digits only, at most 10 (docs/product/errors-and-texts.md#validation-messages).
    const value = key === "phone" ? e.target.value.replace(/\D/g, "").slice(0, 10) : e.target.value;
    setValues((v) => ({ ...v, [key]: value }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (state !== "form") return;
    const parsed = leadFormSchema.safeParse(values);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Values] ??= issue.message;
      setErrors(next);
      setSummary(CHECKOUT_TEXT.fixFields);
      return;
    }
    setErrors({});
    setSummary(null);
    setState("submitting");
    const form = parsed.data;
    const lead: LeadBody = {
      email: form.email,
      phone: form.phone,
      first_name: form.first_name,
      last_name: form.last_name,
      company: form.company,
      lead_source: trial ? "trial" : "website",
      lead_status: "new",
      interest_level: 4,
      metadata: {
        product_type: product!.metadata.product_type,
        product_name: product!.name,
        price_id: price!.id,
        is_trial: trial,
        submitted_at: new Date().toISOString(),
      },
    };
    try {
      if (trial) {
        await startTrial({ email: form.email, priceId: price!.id, first_name: form.first_name, last_name: form.last_name, company: form.company || undefined });
        await recordLead(lead);
        setState("success");
        // Signed out until the mailed link activates the account: the message stays.
        if (auth.user) setRedirect("/dashboard");
      } else {
        const origin = window.location.origin;
        const session = await createCheckoutSession({
          priceId: price!.id,
          quantity: form.quantity,
          successUrl: `${origin}/payments/success?session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${origin}/payments/cancel`,
          customerEmail: form.email,
          // Kept with the payment, so it reaches the customer record and the account (as a trial's does).
          company: form.company || undefined,
        });
        await recordLead(lead);
        setState("success");
        setRedirect(session.url);
      }
    } catch (err) {
      setSummary(errorMessage(err, trial ? CHECKOUT_TEXT.submitFailed : PAYMENT_TEXT.checkoutFailed));
      setState("form");
    }
  }

  return (
    <div className="grid gap-6 md:grid-cols-[1fr_18rem]">
      <Card>
        <CardHeader>
          <CardTitle as="h1" className="text-2xl">{trial ? CHECKOUT_TEXT.trialTitle : CHECKOUT_TEXT.title}</CardTitle>
        </CardHeader>
        <CardContent>
          {state === "success" ? (
            <div className="grid gap-3">
              <p role="status" className="rounded-md bg-success/10 p-4 text-sm">
                {trial ? CHECKOUT_TEXT.successTrial : CHECKOUT_TEXT.successPaid}
              </p>
              {trial && !auth.user ? (
                <p className="text-sm">
                  {CHECKOUT_TEXT.afterActivation}{" "}
                  <Link to="/auth" search={{ login: 1 }} className="font-medium text-primary underline-offset-4 hover:underline">
                    {CHECKOUT_TEXT.signIn}
                  </Link>
                </p>
              ) : null}
            </div>
          ) : (
            <form noValidate onSubmit={onSubmit} className="grid gap-4">
              {summary ? (
                <p role="alert" className="rounded-md bg-destructive/10 p-3 text-sm font-medium text-destructive">
                  {summary}
                </p>
              ) : null}
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField label={CHECKOUT_TEXT.firstName} autoComplete="given-name" value={values.first_name} onChange={set("first_name")} error={errors.first_name} required />
                <FormField label={CHECKOUT_TEXT.lastName} autoComplete="family-name" value={values.last_name} onChange={set("last_name")} error={errors.last_name} required />
              </div>
              <FormField label={CHECKOUT_TEXT.email} type="email" autoComplete="email" value={values.email} onChange={set("email")} error={errors.email} required />
              <FormField label={CHECKOUT_TEXT.phone} type="tel" inputMode="numeric" autoComplete="tel-national" value={values.phone} onChange={set("phone")} error={errors.phone} required />
              <FormField label={CHECKOUT_TEXT.company} autoComplete="organization" value={values.company} onChange={set("company")} error={errors.company} />
              {!trial ? (
                <FormField label={CHECKOUT_TEXT.quantity} type="number" min={1} value={values.quantity} onChange={set("quantity")} error={errors.quantity} />
              ) : null}
              <SubmitButton size="lg" pending={state === "submitting"} pendingLabel={CHECKOUT_TEXT.submitting}>
                {trial ? CHECKOUT_TEXT.submitTrial : CHECKOUT_TEXT.submitPaid}
              </SubmitButton>
            </form>
          )}
        </CardContent>
      </Card>
      <Card className="h-fit">
        <CardHeader>
          <CardTitle>{CHECKOUT_TEXT.orderSummary}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-2 text-sm">
          <p className="font-medium">
            {product.name} · {price.interval === "year" ? "Annual" : "Monthly"}
          </p>
          <p data-testid="checkout-amount">{trial ? CHECKOUT_TEXT.trialSummary : formatAmount(price.unit_amount * Math.max(1, Number(values.quantity) || 1), price.currency)}</p>
        </CardContent>
      </Card>
    </div>
  );
}
