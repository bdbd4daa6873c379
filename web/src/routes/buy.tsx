// The plans page; the plans and payments issue fills it.
import { createFileRoute } from "@tanstack/react-router";
import { emailSearchSchema } from "@web/lib/search";
import { PAGE_TEXT } from "@shared/messages";
import { PublicLayout } from "@web/components/layout/public-layout";
import { Card, CardContent } from "@web/components/ui/card";

export const Route = createFileRoute("/buy")({
  validateSearch: emailSearchSchema,
  component: BuyPage,
});

function BuyPage() {
  const { email } = Route.useSearch();
  return (
    <PublicLayout wide>
      <h1 className="text-3xl font-semibold tracking-tight">{PAGE_TEXT.choosePlan}</h1>
      {email ? (
        <p className="mt-2 text-muted-foreground">
          {PAGE_TEXT.plansFor} <span className="font-medium break-all text-foreground">{email}</span>
        </p>
      ) : null}
      <Card className="mt-8">
        <CardContent className="p-6 text-sm text-muted-foreground">{PAGE_TEXT.arrivesWith("plans and payments")}</CardContent>
      </Card>
    </PublicLayout>
  );
}
