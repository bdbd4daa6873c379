import "@web/lib/zod-jitless";
import "./styles.css";
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, startTransition, StrictMode, Suspense, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { useToasts } from "@web/components/ui/toast-store";
import { getAuthClient } from "@web/lib/auth-client";
import { appContainer } from "@web/lib/first-screen-handover";
import { AuthProvider, mayHaveSession } from "@web/lib/auth/auth-provider";
import { prefetchProfile } from "@web/lib/auth/early-profile";
import { whenIdleAfterLoad } from "@web/lib/idle";
import { createQueryClient } from "@web/lib/query-client";
import { AppRouter, createAppRouter } from "./router";

// Toasts are only ever shown after something happens: their UI loads once the page has loaded and
// is idle, or with the first toast, whichever comes first (decision 023).
const Toaster = lazy(() => import("@web/components/ui/toaster").then((m) => ({ default: m.Toaster })));

function DeferredToaster() {
  const [shown, setShown] = useState(false);
  const hasToast = useToasts().length > 0;
  if (hasToast && !shown) setShown(true); // once shown, it stays
  useEffect(() => whenIdleAfterLoad(() => setShown(true)), []);
  return shown ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

const queryClient = createQueryClient();
const router = createAppRouter();

// A first page does not wait for one thing after another (decision 027): the profile (for a stored
// session) and the current route's chunks are asked for now, while the session is being restored.
void prefetchProfile(queryClient);
// Restoring a session (the configuration and the identity library's chunk) starts here too, on the
// provider's own test, not when it mounts after the first render: every private page waits for it.
// The provider asks for the same client and gets this one.
if (mayHaveSession()) getAuthClient().catch(() => {});
const pageCode = Promise.all(router.getMatchedRoutes(window.location.pathname)[0].map((route) => router.loadRouteChunk(route)?.catch(() => {})));

// The first render is a transition: React renders it in slices, yielding to the browser between
// them, instead of one long task (decision 030). A first screen the HTML painted stays until the
// app has something to show (decision 033), so the app renders once the page's code is in (it is
// preloaded with the entry, decision 032): before, the router shows a spinner for the moment the
// chunks take, which would take the first screen's place.
void pageCode.then(() => {
  const root = createRoot(appContainer(document.getElementById("root")!));
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <AuthProvider>
            <AppRouter router={router} />
            <DeferredToaster />
          </AuthProvider>
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
});
