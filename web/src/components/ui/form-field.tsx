// A labelled control with its hint and validation message, tied together for assistive technology.
import { useId, type ComponentProps, type ReactNode } from "react";
import { Input } from "./input";
import { Label } from "./label";

type FieldText = { label: string; error?: string; hint?: string };
type ControlProps = { id: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined };

/** The label, hint and error around any control; `children` renders the control with the wiring props. */
export function Field({ label, error, hint, id, children }: FieldText & { id?: string; children: (control: ControlProps) => ReactNode }) {
  const generated = useId();
  const controlId = id ?? generated;
  const errorId = `${controlId}-error`;
  const hintId = `${controlId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="grid gap-2">
      <Label htmlFor={controlId}>{label}</Label>
      {children({ id: controlId, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
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

export function FormField({ label, error, hint, id, ref, ...inputProps }: ComponentProps<"input"> & FieldText) {
  return (
    <Field label={label} error={error} hint={hint} id={id}>
      {(control) => <Input ref={ref} {...control} {...inputProps} />}
    </Field>
  );
}
