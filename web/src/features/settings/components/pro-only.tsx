// What an account without Pro sees in a Pro-only section (API access, Webhooks): why, what Pro gives,
// and an Upgrade link to /buy with the account's address.
import { Link } from "@tanstack/react-router";
import { PLAN_TEXT } from "@shared/messages";
import { Button } from "@web/components/ui/button";

export function ProOnly({ why, upgrade, email }: { why: string; upgrade: string; email: string }) {
  return (
    <div className="grid gap-2 text-sm">
      <p>{why}</p>
      <ul className="list-disc pl-5 text-muted-foreground">
        {PLAN_TEXT.features.pro.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <div>
        <Button asChild size="sm">
          <Link to="/buy" search={{ email }}>
            {upgrade}
          </Link>
        </Button>
      </div>
    </div>
  );
}
