// The button of a form or a dialog whose action takes a while: disabled while it runs, with a
// spinner beside its label (in place of its icon, when it has one).
import { LoaderCircle } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@web/lib/utils";
import { Button, type ButtonProps } from "./button";
import { Spinner } from "./spinner";

/** The spinner takes the colour of the button's text. */
const SPINNER_TONE: Record<string, string> = { default: "text-primary-foreground", destructive: "text-destructive-foreground" };

export type SubmitButtonProps = Omit<ButtonProps, "asChild"> & {
  /** The action is running: the button is disabled and shows the spinner. */
  pending: boolean;
  /** What the spinner says to a screen reader while pending ('Saving'); without it the spinner is only drawn. */
  pendingLabel?: string;
  /** Shown before the label while not pending. */
  icon?: ReactNode;
};

export function SubmitButton({ pending, pendingLabel, icon = null, variant, type = "submit", disabled, children, ...props }: SubmitButtonProps) {
  const spinner = pendingLabel ? (
    <Spinner className={cn("size-4", SPINNER_TONE[variant ?? "default"])} label={pendingLabel} />
  ) : (
    <LoaderCircle className="animate-spin" aria-hidden />
  );
  return (
    <Button type={type} variant={variant} disabled={pending || disabled} {...props}>
      {pending ? spinner : icon}
      {children}
    </Button>
  );
}
