// The card-payment test console: admins only (it creates customers and subscriptions by hand).
import { createFileRoute, redirect } from "@tanstack/react-router";
import { ACCESS_TEXT } from "@shared/messages";
import { toast } from "@web/lib/toast-store";
import { PaymentsConsole } from "@web/features/billing/components/payments-console";

export const Route = createFileRoute("/_app/payments")({
  beforeLoad: ({ context, preload }) => {
    if (context.user.is_admin) return;
    if (!preload) toast({ variant: "destructive", title: ACCESS_TEXT.accessDenied });
    throw redirect({ to: "/", replace: true });
  },
  component: PaymentsConsole,
});
