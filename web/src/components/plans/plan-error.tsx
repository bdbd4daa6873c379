// A failure's description for a toast: the server's words, plus an Upgrade link to the plans when
// the plan is what stood in the way (no subscription, minutes used up, agent limit).
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { PLAN_TEXT } from "@shared/messages";
import { ApiError, serverMessage } from "@web/lib/api";

export const PLAN_ERROR_CODES = ["subscription_required", "minutes_limit_reached", "agent_limit_reached"];

export function planErrorDescription(err: unknown): ReactNode {
  const message = serverMessage(err);
  if (!(err instanceof ApiError) || !err.body || !PLAN_ERROR_CODES.includes(err.body.code)) return message;
  return (
    <>
      {message}{" "}
      <Link to="/buy" className="font-medium underline underline-offset-4">
        {PLAN_TEXT.upgrade}
      </Link>
    </>
  );
}
