// The signed-in frame: sidebar (a drawer on phones) and the page. The /_app route guards it.
import { Outlet } from "@tanstack/react-router";
import { Menu, X } from "lucide-react";
import { useState } from "react";
import { FIRST_SCREEN_CLASS } from "@shared/first-screen";
import { NAV_TEXT } from "@shared/messages";
import { Logo } from "@web/components/brand/logo";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogClose, DialogTitle, DialogTrigger, DrawerContent } from "@web/components/ui/dialog";
import { PageSpinner } from "@web/components/ui/spinner";
import { useAuth } from "@web/lib/auth/auth-provider";
import { useStaged } from "@web/lib/staged";
import { SidebarContent } from "./app-sidebar";
import { FirstScreenHeading, useFirstScreen } from "./first-screen";

function MobileNav() {
  const [open, setOpen] = useState(false);
  return (
    <header className={FIRST_SCREEN_CLASS.topBar}>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={NAV_TEXT.openMenu} className="-ml-2">
            <Menu aria-hidden />
          </Button>
        </DialogTrigger>
        <DrawerContent aria-describedby={undefined}>
          <DialogTitle className="sr-only">{NAV_TEXT.mainNavigation}</DialogTitle>
          <DialogClose asChild>
            <Button variant="ghost" size="icon" aria-label={NAV_TEXT.closeMenu} className="absolute top-3 right-3">
              <X aria-hidden />
            </Button>
          </DialogClose>
          <SidebarContent onNavigate={() => setOpen(false)} />
        </DrawerContent>
      </Dialog>
      <Logo />
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
  // Signing out empties the query cache at once, while the guard's redirect to /auth follows a
  // render later: pages must not render (and refetch without a session) in between.
  if (!user) return <PageSpinner />;
  return (
    <div className={FIRST_SCREEN_CLASS.frame}>
      <aside className={FIRST_SCREEN_CLASS.sidebar}>{staged ? <SidebarContent /> : null}</aside>
      {staged ? <MobileNav /> : <header className={FIRST_SCREEN_CLASS.topBar} />}
      <main id="main" className={FIRST_SCREEN_CLASS.main}>
        {staged ? <Outlet /> : firstScreen ? <FirstScreenHeading header={firstScreen} /> : null}
      </main>
    </div>
  );
}
