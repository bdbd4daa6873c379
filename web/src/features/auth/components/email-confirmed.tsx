// 'Email Confirmed!': reached from "I've Confirmed" once the address is confirmed (/auth?confirmed=1&email=...), or the emailed link.
import { useNavigate } from "@tanstack/react-router";
import { CircleCheck } from "lucide-react";
import { useEffect, useRef } from "react";
import { AUTH_TEXT, AUTH_TOAST } from "@shared/messages";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
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
      <CardHeader className="items-center text-center">
        <span className="mb-2 grid size-12 place-items-center rounded-full bg-success/15 text-success" aria-hidden>
          <CircleCheck className="size-6" />
        </span>
        <CardTitle as="h1" className="text-2xl">{AUTH_TEXT.confirmedTitle}</CardTitle>
        <CardDescription>{AUTH_TEXT.confirmedText}</CardDescription>
      </CardHeader>
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
