// 'Email Confirmed!': reached from "I've Confirmed" once the address is confirmed (/auth?confirmed=1&email=...), or the emailed link.
import { useNavigate } from "@tanstack/react-router";
import { CircleCheck } from "lucide-react";
import { useEffect, useRef } from "react";
import { AUTH_TEXT, AUTH_TOAST } from "@shared/messages";
import { AuthCardHeader } from "@web/components/account/auth-card-header";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { toast } from "@web/lib/toast-store";

export function EmailConfirmed({ email }: { email: string }) {
  const navigate = useNavigate();
  const toasted = useRef(false);

  useEffect(() => {
    if (toasted.current) return;
    toasted.current = true;
    toast({ title: AUTH_TOAST.emailConfirmedTitle, description: AUTH_TOAST.emailConfirmed });
  }, []);

  return (
    <Card>
      <AuthCardHeader centered icon={CircleCheck} tone="success" title={AUTH_TEXT.confirmedTitle} description={AUTH_TEXT.confirmedText} />
      <CardContent>
        <Button
          className="w-full"
          onClick={() => void navigate({ to: "/auth", search: { tab: "signin", email: email || undefined } })}
        >
          {AUTH_TEXT.continueToSignIn}
        </Button>
      </CardContent>
    </Card>
  );
}
