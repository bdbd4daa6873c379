// Admin-only areas (spec 2 §6): anyone else goes to / with an 'Access Denied' toast.
import { Navigate } from "@tanstack/react-router";
import { useEffect, useRef, type ReactNode } from "react";
import { ACCESS_TEXT } from "@shared/messages";
import { toast } from "@web/components/ui/toast-store";
import { useAuth } from "@web/features/auth/auth-provider";

export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const denied = Boolean(user) && !user?.is_admin;
  const toasted = useRef(false);

  useEffect(() => {
    if (!denied || toasted.current) return;
    toasted.current = true;
    toast({ variant: "destructive", title: ACCESS_TEXT.accessDenied, description: ACCESS_TEXT.adminDenied });
  }, [denied]);

  if (denied) return <Navigate to="/" replace />;
  return <>{children}</>;
}
