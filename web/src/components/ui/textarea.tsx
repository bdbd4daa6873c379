// A multi-line text input that grows with its text up to a cap, and the labelled field with its
// validation message (like FormField).
import type { ComponentProps } from "react";
import { cn } from "@web/lib/utils";
import { Field } from "./form-field";

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return (
    <textarea
      className={cn(
        "flex field-sizing-content min-h-24 max-h-96 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs transition-colors placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive/30 md:text-sm",
        className,
      )}
      {...props}
    />
  );
}

export function TextareaField({ label, error, hint, id, ref, ...props }: ComponentProps<"textarea"> & { label: string; error?: string; hint?: string }) {
  return (
    <Field label={label} error={error} hint={hint} id={id}>
      {(control) => <Textarea ref={ref} {...control} {...props} />}
    </Field>
  );
}
