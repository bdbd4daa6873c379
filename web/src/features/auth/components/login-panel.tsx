// /auth?login=1: the 'Log in' panel with a login-only form and 'Go back'.
import { Link, useNavigate, useRouter } from "@tanstack/react-router";
import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { AUTH_TEXT } from "@shared/messages";
import { AuthCardHeader } from "@web/components/account/auth-card-header";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { useAuth } from "@web/lib/auth/auth-provider";
import { LoginForm } from "./login-form";

export function LoginPanel({ defaultEmail }: { defaultEmail: string }) {
  const [email, setEmail] = useState(defaultEmail);
  const { signIn } = useAuth();
  const router = useRouter();
  const navigate = useNavigate();

  // docs/product/dashboard-and-counts.md#sections-and-who-sees-them: back to the previous page when there is a referrer; otherwise the plan panel at /auth.
  // A link opened in a new tab has a referrer but no page behind it (back() would do nothing): plan panel.
  function goBack() {
    if (document.referrer && window.history.length > 1) router.history.back();
    else void navigate({ to: "/auth", search: {} });
  }

  return (
    <Card>
      <AuthCardHeader
        back={
          <Button variant="ghost" size="sm" className="-ml-2 w-fit text-muted-foreground" onClick={goBack}>
            <ArrowLeft aria-hidden />
            {AUTH_TEXT.goBack}
          </Button>
        }
        title={AUTH_TEXT.loginHeading}
        description={AUTH_TEXT.loginText}
      />
      <CardContent>
        <LoginForm defaultEmail={defaultEmail} onEmailChange={setEmail} onSubmit={({ email, password }) => signIn(email, password)} />
        <p className="mt-4 text-center text-sm">
          <Link to="/auth" search={{ forgot: 1, email: email || undefined }} className="font-medium text-primary underline-offset-4 hover:underline">
            {AUTH_TEXT.forgotPassword}
          </Link>
        </p>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          {AUTH_TEXT.noAccount}{" "}
          <Link to="/auth" search={{ tab: "register" }} className="font-medium text-primary underline-offset-4 hover:underline">
            {AUTH_TEXT.registerTab}
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
