// Focus goes back where it came from when a dialog closes. Radix returns focus to a dialog's
// Trigger, but most of our dialogs are opened from state (a row's Buy button, a call's details)
// without one, and then focus fell to the page body: a keyboard user had to Tab from the top of
// the page again. The element focused when the dialog opened is remembered and focused again on
// close, if it is still on the page; if it is gone (the row it sat in was bought or deleted), the
// dialog's `fallbackFocus` names where focus goes instead, else the first control of the page's
// content (the app layout's `main#main`: after deleting an agent, 'Add New Agent').
import { useRef } from "react";
import { firstControl } from "@web/lib/focus";

type AutoFocusHandler = (event: Event) => void;

/** Where focus goes on close when the control that opened the dialog has left the page. */
export type FallbackFocus = () => HTMLElement | null | undefined;

export function useReturnFocus(onOpenAutoFocus?: AutoFocusHandler, onCloseAutoFocus?: AutoFocusHandler, fallbackFocus?: FallbackFocus) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus(event: Event) {
      // Dispatched before focus moves into the dialog: the active element is still the opener.
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus(event: Event) {
      onCloseAutoFocus?.(event);
      const target = opener.current;
      opener.current = null;
      if (event.defaultPrevented) return;
      const destination = target?.isConnected ? target : (fallbackFocus?.() ?? firstControl(document.getElementById("main")));
      if (!destination?.isConnected) return;
      event.preventDefault();
      destination.focus({ preventScroll: true });
    },
  };
}
