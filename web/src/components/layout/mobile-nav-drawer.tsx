// The phone's navigation drawer: Radix Dialog and its focus trap, in a chunk of its own that loads
// when the page is idle or the menu is first opened (decision 037).
import { X } from "lucide-react";
import { NAV_TEXT } from "@shared/messages";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogClose, DialogTitle, DrawerContent } from "@web/components/ui/dialog";
import { SidebarContent } from "./app-sidebar";

export function MobileNavDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DrawerContent aria-describedby={undefined}>
        <DialogTitle className="sr-only">{NAV_TEXT.mainNavigation}</DialogTitle>
        <DialogClose asChild>
          <Button variant="ghost" size="icon" aria-label={NAV_TEXT.closeMenu} className="absolute top-3 right-3">
            <X aria-hidden />
          </Button>
        </DialogClose>
        <SidebarContent onNavigate={() => onOpenChange(false)} bell={false} />
      </DrawerContent>
    </Dialog>
  );
}
