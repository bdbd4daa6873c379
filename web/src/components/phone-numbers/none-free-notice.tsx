// What pairing a number with an agent shows when there is nothing left to pick: no unassigned number
// for an agent (with a link to buy one), or no agent without a number (with a link to the agents).
import { Link } from "@tanstack/react-router";

export function NoneFreeNotice({ text, to, linkText }: { text: string; to: "/phone-numbers" | "/agent-settings"; linkText: string }) {
  return (
    <p className="text-sm text-muted-foreground">
      {text}{" "}
      <Link to={to} className="font-medium text-primary underline-offset-4 hover:underline">
        {linkText}
      </Link>
    </p>
  );
}
