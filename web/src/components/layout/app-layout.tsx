// The signed-in frame: sidebar (a drawer on phones) and the page. The /_app route guards it.
import { Outlet } from "@tanstack/react-router";
import { Menu } from "lucide-react";
import { FIRST_SCREEN_CLASS } from "@shared/first-paint/first-screen";
import { NAV_TEXT } from "@shared/messages";
import { AlertBell } from "@web/components/alerts/alert-bell";
import { Logo } from "@web/components/brand/logo";
import { Button } from "@web/components/ui/button";
import { PageSpinner } from "@web/components/ui/spinner";
import { toast } from "@web/lib/toast-store";
import { useAuth } from "@web/lib/auth/auth-provider";
import { useIdleDialog } from "@web/lib/idle-module";
import { useStaged } from "@web/lib/staged";
import { useWideScreen } from "@web/lib/wide-screen";
import { SidebarContent } from "./app-sidebar";
import { FirstScreenHeading, useFirstScreen } from "@web/boot/first-screen";

const loadDrawer = () => import("./mobile-nav-drawer");

/**
 * The phone's top bar. The menu button is the page's own, so it stays the same element (and keeps
 * focus) while the drawer's code arrives; it opens the drawer at once when that code is there.
 */
function MobileNav() {
  const { module: drawer, open, setOpen, triggerProps } = useIdleDialog(loadDrawer, () =>
    toast({ variant: "destructive", title: NAV_TEXT.menuLoadFailed }),
  );
  return (
    <header className={FIRST_SCREEN_CLASS.topBar}>
      <Button variant="ghost" size="icon" aria-label={NAV_TEXT.openMenu} className="-ml-2" {...triggerProps}>
        <Menu aria-hidden />
      </Button>
      {drawer ? <drawer.MobileNavDrawer open={open} onOpenChange={setOpen} /> : null}
      <Logo />
      {/* The bell where a phone sees it without opening the menu. */}
      <div className="ml-auto">
        <AlertBell align="end" />
      </div>
    </header>
  );
}

export function AppLayout() {
  const { user } = useAuth();
  // The frame first, as the first screen painted it; the navigation and the page in the deferred
  // render right after, which React renders in slices (the router's update that shows the frame is
  // a blocking one, decision 030).
  const staged = useStaged();
  const firstScreen = useFirstScreen();
  // The sidebar (with its bell) on a wide screen, the top bar (with its own) on a phone: CSS hides
  // the other, and rendering only the one shown keeps one bell in the page.
  const wide = useWideScreen();
  // Signing out empties the query cache at once, while the guard's redirect to /auth follows a
  // render later: pages must not render (and refetch without a session) in between.
  if (!user) return <PageSpinner />;
  return (
    <div className={FIRST_SCREEN_CLASS.frame}>
      <aside className={FIRST_SCREEN_CLASS.sidebar}>{staged && wide ? <SidebarContent /> : null}</aside>
      {staged && !wide ? <MobileNav /> : <header className={FIRST_SCREEN_CLASS.topBar} />}
      <main id="main" className={FIRST_SCREEN_CLASS.main}>
        {staged ? <Outlet /> : firstScreen ? <FirstScreenHeading header={firstScreen} /> : null}
      </main>
    </div>
  );
}
