// The full authentication form: 'Sign In' and 'Register' tabs (docs/product/dashboard-and-counts.md#sections-and-who-sees-them).
import { useNavigate } from "@tanstack/react-router";
import { AUTH_TEXT } from "@shared/messages";
import { AuthCardHeader } from "@web/components/account/auth-card-header";
import { Card, CardContent } from "@web/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@web/components/ui/tabs";
import { useAuth } from "@web/lib/auth/auth-provider";
import { LoginForm } from "./login-form";
import { RegisterForm } from "./register-form";

export type AuthTab = "signin" | "register";

export function AuthForm({ tab, defaultEmail }: { tab: AuthTab; defaultEmail: string }) {
  const { signIn, signUp } = useAuth();
  const navigate = useNavigate();

  return (
    <Card>
      <AuthCardHeader title={AUTH_TEXT.welcome} description={AUTH_TEXT.welcomeText} />
      <CardContent>
        <Tabs
          value={tab}
          onValueChange={(next) =>
            void navigate({ to: "/auth", search: { tab: next as AuthTab, email: defaultEmail || undefined }, replace: true })
          }
        >
          <TabsList className="grid w-full grid-cols-2">
            <TabsTrigger value="signin">{AUTH_TEXT.signInTab}</TabsTrigger>
            <TabsTrigger value="register">{AUTH_TEXT.registerTab}</TabsTrigger>
          </TabsList>
          <TabsContent value="signin">
            <LoginForm defaultEmail={defaultEmail} onSubmit={({ email, password }) => signIn(email, password)} />
          </TabsContent>
          <TabsContent value="register">
            <RegisterForm
              defaultEmail={defaultEmail}
              onSubmit={async ({ email, password, username, companyName }) => {
                const { needsConfirmation } = await signUp(email, password, { username, name: username, company: companyName });
                // With a session (confirmation off) the route guard moves on to the dashboard.
                if (needsConfirmation) await navigate({ to: "/auth", search: { confirm: 1, email } });
              }}
            />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
