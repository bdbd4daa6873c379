// The toasts' UI, rendered by the root route so that what a toast holds (an Upgrade link) is inside
// the router. Toasts are only ever shown after something happens: their UI loads once the page has
// loaded and is idle, or with the first toast, whichever comes first (decision 023). A toast that
// fails to render is dropped with the queue; it never takes the page down with it.
import { lazy, Suspense, useEffect, useState } from "react";
import { ErrorBoundary } from "@web/components/layout/render-error";
import { whenIdleAfterLoad } from "@web/lib/idle";
import { resetToasts, useToasts } from "@web/lib/toast-store";

const Toaster = lazy(() => import("./toaster").then((m) => ({ default: m.Toaster })));

export function DeferredToaster() {
  const [shown, setShown] = useState(false);
  const hasToast = useToasts().length > 0;
  if (hasToast && !shown) setShown(true); // once shown, it stays
  useEffect(() => whenIdleAfterLoad(() => setShown(true)), []);
  return shown ? (
    <ErrorBoundary
      fallback={(_, reset) => <DropToasts reset={reset} />}
      onError={(error) => console.error("A toast failed to render", error)}
    >
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </ErrorBoundary>
  ) : null;
}

/** Empties the queue that held the failing toast, then shows the (now empty) toaster again. */
function DropToasts({ reset }: { reset: () => void }) {
  useEffect(() => {
    resetToasts();
    reset();
  }, [reset]);
  return null;
}
