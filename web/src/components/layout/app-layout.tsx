// The signed-in frame: sidebar (a drawer on phones) and the page. The /_app route guards it.
import { Outlet } from "@tanstack/react-router";
import { Menu, X } from "lucide-react";
import { useState } from "react";
import { NAV_TEXT } from "@shared/messages";
import { Logo } from "@web/components/brand/logo";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogClose, DialogTitle, DialogTrigger, DrawerContent } from "@web/components/ui/dialog";
import { PageSpinner } from "@web/components/ui/spinner";
import { useAuth } from "@web/lib/auth/auth-provider";
import { SidebarContent } from "./app-sidebar";

function MobileNav() {
  const [open, setOpen] = useState(false);
  return (
    <header className="sticky top-0 z-40 flex h-14 items-center gap-3 border-b border-border bg-background/95 px-4 backdrop-blur md:hidden">
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
  // Signing out empties the query cache at once, while the guard's redirect to /auth follows a
  // render later: pages must not render (and refetch without a session) in between.
  if (!user) return <PageSpinner />;
  return (
    <div className="min-h-dvh bg-muted/40 md:grid md:grid-cols-[16rem_minmax(0,1fr)]">
      <aside className="sticky top-0 hidden h-dvh border-r border-sidebar-border bg-sidebar md:block">
        <SidebarContent />
      </aside>
      <MobileNav />
      <main id="main" className="min-w-0 px-4 py-6 sm:px-6 md:px-8 md:py-8">
        <Outlet />
      </main>
    </div>
  );
}
