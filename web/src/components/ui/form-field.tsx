// A labelled input with its validation message, tied together for assistive technology.
import { useId, type ComponentProps } from "react";
import { Input } from "./input";
import { Label } from "./label";

type FormFieldProps = ComponentProps<"input"> & { label: string; error?: string; hint?: string };

export function FormField({ label, error, hint, id, ref, ...inputProps }: FormFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="grid gap-2">
      <Label htmlFor={inputId}>{label}</Label>
      <Input ref={ref} id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...inputProps} />
      {hint && !error ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
