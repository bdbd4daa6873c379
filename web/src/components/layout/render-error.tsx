// What shows when a component throws while rendering, so no error leaves a blank page: the router's
// error component takes the failing page's place inside the layout (sidebar and menu stay), and
// a boundary around the whole app catches what fails outside the router. Both say what failed and
// offer to try again or go back.
import { useRouter, type ErrorComponentProps } from "@tanstack/react-router";
import { AlertTriangle, ArrowLeft, RotateCcw } from "lucide-react";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { RENDER_ERROR_TEXT } from "@shared/messages";
import { Logo } from "@web/components/brand/logo";
import { Button } from "@web/components/ui/button";

/** The error's own words, for a person to report; never empty. */
export function describeError(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "string" && error) return error;
  return RENDER_ERROR_TEXT.text;
}

type BoundaryProps = {
  children: ReactNode;
  /** What to show instead of the children once they have thrown; `reset` renders them again. */
  fallback: (error: unknown, reset: () => void) => ReactNode;
  onError?: (error: unknown, info: ErrorInfo) => void;
};

/** React's error boundary as a component: the children, or the fallback once they have thrown. */
export class ErrorBoundary extends Component<BoundaryProps, { error: [unknown] | null }> {
  // Wrapped, so that a thrown `undefined` or `null` still counts as an error.
  state: { error: [unknown] | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: [error] as [unknown] };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    this.props.onError?.(error, info);
  }

  reset = () => this.setState({ error: null });

  render() {
    return this.state.error ? this.props.fallback(this.state.error[0], this.reset) : this.props.children;
  }
}

/** The message with its two ways out. */
export function RenderErrorPanel({ error, onRetry, onBack }: { error: unknown; onRetry: () => void; onBack: () => void }) {
  return (
    <div role="alert" className="mx-auto grid w-full max-w-xl gap-4 rounded-xl border border-destructive/40 bg-card p-6 text-card-foreground shadow-sm">
      <div className="flex items-start gap-3">
        <AlertTriangle className="mt-0.5 size-6 shrink-0 text-destructive" aria-hidden />
        <div className="grid min-w-0 gap-1">
          <h1 className="text-xl font-semibold tracking-tight">{RENDER_ERROR_TEXT.title}</h1>
          <p className="text-sm text-muted-foreground">{RENDER_ERROR_TEXT.text}</p>
          <p className="text-sm break-words">
            <code>{describeError(error)}</code>
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button onClick={onRetry}>
          <RotateCcw aria-hidden />
          {RENDER_ERROR_TEXT.retry}
        </Button>
        <Button variant="outline" onClick={onBack}>
          <ArrowLeft aria-hidden />
          {RENDER_ERROR_TEXT.goBack}
        </Button>
      </div>
    </div>
  );
}

/**
 * The router's error component (`defaultErrorComponent`): it takes the place of the route that
 * failed, so the layouts above it stay. Trying again loads the route afresh and renders it again;
 * going back returns to the previous page, or the home page when there is none.
 */
export function RouteRenderError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <RenderErrorPanel
      error={error}
      onRetry={() => {
        reset();
        void router.invalidate();
      }}
      onBack={() => {
        if (router.history.canGoBack()) router.history.back();
        else void router.navigate({ to: "/" });
      }}
    />
  );
}

/** The whole app's last resort, outside the router: the brand, the message and the ways out. */
export function AppRenderError({ error, reset }: { error: unknown; reset: () => void }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-muted/40 px-4">
      <Logo />
      <RenderErrorPanel
        error={error}
        onRetry={reset}
        onBack={() => {
          // The router under this boundary is unmounted: follow the browser's own history, then render it again.
          if (window.history.length > 1) {
            window.addEventListener("popstate", () => reset(), { once: true });
            window.history.back();
          } else window.location.assign("/");
        }}
      />
    </main>
  );
}
