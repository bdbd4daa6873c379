// The header of the sign-in and account cards (sign-in, sign-up, recovery, confirmation, activation):
// the card is the page, so its title is the page's h1; a way back and an icon badge when the card has them.
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { cn } from "@web/lib/utils";

const BADGE_TONE = { brand: "bg-brand-100 text-primary", success: "bg-success/15 text-success" };

export function AuthCardHeader({
  title,
  description,
  icon: Icon,
  tone = "brand",
  back,
  centered = false,
}: {
  title: ReactNode;
  description?: ReactNode;
  /** Drawn in a round badge above the title. */
  icon?: LucideIcon;
  tone?: keyof typeof BADGE_TONE;
  /** A link or button back, above everything else. */
  back?: ReactNode;
  centered?: boolean;
}) {
  return (
    <CardHeader className={centered ? "items-center text-center" : undefined}>
      {back}
      {Icon ? (
        <span className={cn("mb-2 grid size-12 place-items-center rounded-full", BADGE_TONE[tone])} aria-hidden>
          <Icon className="size-6" />
        </span>
      ) : null}
      <CardTitle as="h1" className="text-2xl">
        {title}
      </CardTitle>
      {description ? <CardDescription>{description}</CardDescription> : null}
    </CardHeader>
  );
}
