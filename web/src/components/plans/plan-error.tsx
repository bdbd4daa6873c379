// A failure's description for a toast: the server's words, plus an Upgrade link to the plans when
// the plan is what stood in the way (no subscription, minutes used up, agent limit).
import { Link, useRouter } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { PLAN_TEXT } from "@shared/messages";
import { ApiError, serverMessage } from "@web/lib/api";

export const PLAN_ERROR_CODES = ["subscription_required", "minutes_limit_reached", "agent_limit_reached"];

/** Whether the plan is what refused the request. */
export const isPlanError = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.body !== null && PLAN_ERROR_CODES.includes(err.body.code);

/**
 * The link to the plans (with the account's email, which /buy shows the plans for). Inside the router
 * it navigates in place; anywhere else (a tree rendered outside the router) it is a plain link, since
 * a router link there cannot render at all.
 */
export function UpgradeLink({
  email,
  children = PLAN_TEXT.upgrade,
  className = "font-medium underline underline-offset-4",
}: {
  email?: string;
  children?: ReactNode;
  className?: string;
}) {
  const router = useRouter({ warn: false });
  if (!router) {
    return (
      <a href={email ? `/buy?${new URLSearchParams({ email })}` : "/buy"} className={className}>
        {children}
      </a>
    );
  }
  return (
    <Link to="/buy" search={email ? { email } : {}} className={className}>
      {children}
    </Link>
  );
}

export function planErrorDescription(err: unknown): ReactNode {
  const message = serverMessage(err);
  if (!isPlanError(err)) return message;
  return (
    <>
      {message} <UpgradeLink />
    </>
  );
}
