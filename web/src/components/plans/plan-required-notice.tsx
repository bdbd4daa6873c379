// Tells an account without a plan, before it tries, that activating agents, buying numbers and test
// calls need one (the server refuses them with 402 subscription_required), with the way to the plans.
// The answer comes from GET /api/usage-stats, which reads the plan the way the refusal does, and says
// why the account has none (never had one, trial ended, payment failed, ended); admins, who pass that
// check, are never told.
import { CreditCard } from "lucide-react";
import { PLAN_TEXT } from "@shared/messages";
import { useUsageStats } from "@web/api/usage-stats";
import { buttonVariants } from "@web/components/ui/button";
import { UpgradeLink } from "./plan-error";

export function PlanRequiredNotice({ email }: { email?: string }) {
  const usage = useUsageStats();
  if (!usage.data?.planRequired) return null;
  return (
    <section
      aria-labelledby="plan-required-title"
      className="flex flex-col gap-3 rounded-xl border border-primary/40 bg-primary/5 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex min-w-0 items-start gap-3">
        <CreditCard className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
        <div className="min-w-0">
          <h2 id="plan-required-title" className="text-sm font-semibold">
            {PLAN_TEXT.requiredTitle}
          </h2>
          <p className="text-sm text-muted-foreground">
            <span>{PLAN_TEXT.requiredReason[usage.data.planState === "subscribed" ? "none" : usage.data.planState]}</span>{" "}
            <span>{PLAN_TEXT.requiredText}</span>
          </p>
        </div>
      </div>
      <UpgradeLink email={email} className={buttonVariants({ size: "sm" })}>
        {PLAN_TEXT.choosePlan}
      </UpgradeLink>
    </section>
  );
}
