import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import { useState, type ComponentProps } from "react";
import { cn } from "@web/lib/utils";

export const buttonVariants = cva(
  "inline-flex shrink-0 items-center justify-center gap-2 rounded-md text-sm font-medium whitespace-nowrap transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50 [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground shadow-sm hover:bg-primary/90",
        destructive: "bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive/90",
        outline: "border border-input bg-background shadow-sm hover:bg-accent hover:text-accent-foreground",
        secondary: "bg-secondary text-secondary-foreground hover:bg-secondary/80",
        ghost: "hover:bg-accent hover:text-accent-foreground",
        link: "text-primary underline-offset-4 hover:underline",
      },
      size: {
        default: "h-10 px-4 py-2",
        sm: "h-9 px-3",
        lg: "h-11 px-6",
        icon: "size-10",
      },
    },
    defaultVariants: { variant: "default", size: "default" },
  },
);

export type ButtonProps = ComponentProps<"button"> & VariantProps<typeof buttonVariants> & { asChild?: boolean };

/**
 * A button. One that has keyboard focus when it becomes disabled (Save turning into 'Saving', Activate
 * into 'Activating') stays focusable, marked aria-disabled and ignoring presses, instead of taking
 * the `disabled` attribute: the browser would drop focus on the page body, and a keyboard user would
 * have to find their place again. Once focus moves on, it is disabled as usual.
 */
export function Button({ className, variant, size, asChild = false, type, disabled, onClick, onFocus, onBlur, ...props }: ButtonProps) {
  const [focused, setFocused] = useState(false);
  if (asChild) return <Slot className={cn(buttonVariants({ variant, size }), className)} {...{ disabled, onClick, onFocus, onBlur }} {...props} />;
  const holdsFocus = Boolean(disabled) && focused;
  return (
    <button
      type={type ?? "button"}
      className={cn(buttonVariants({ variant, size }), className)}
      disabled={disabled && !holdsFocus}
      aria-disabled={holdsFocus || undefined}
      onClick={(event) => {
        // Also stops the form submission a press of Enter in a field would make through this button.
        if (holdsFocus) event.preventDefault();
        else onClick?.(event);
      }}
      onFocus={(event) => {
        setFocused(true);
        onFocus?.(event);
      }}
      onBlur={(event) => {
        setFocused(false);
        onBlur?.(event);
      }}
      {...props}
    />
  );
}
