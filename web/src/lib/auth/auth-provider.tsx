// The session and current user for the whole app (docs/product/accounts-and-sign-in.md#sessions Session): supabase-js owns the
// session and refreshes the token; the user view comes from GET /api/profile.
import type { Session } from "@supabase/supabase-js";
import type { IdentityClient } from "@web/lib/auth-client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { AUTH_TOAST } from "@shared/messages";
import type { CurrentUserView } from "@shared/schemas/auth";
import { toast } from "@web/lib/toast-store";
import { ApiError, errorMessage, setAccessToken } from "@web/lib/api";
import { getAuthClient, hasStoredSession, onAuthClient, RESET_PASSWORD_PATH } from "@web/lib/auth-client";
import { STORED_SESSION_KEY } from "@web/lib/stored-session";
import { currentUserQueryOptions, getCurrentUser } from "./current-user";
import { currentUserKeys } from "./profile-key";
import { joinEarlyProfile } from "./early-profile";
import { rememberEmail } from "./last-email";
import { rememberSignUp } from "./sign-up-proof";

export type SignUpMetadata = {
  username: string;
  name: string;
  company: string;
};

export type AuthContextValue = {
  user: CurrentUserView | null;
  session: Session | null;
  isLoading: boolean;
  /**
   * The user once loading is over (null when signed out). Route guards await it in `beforeLoad`,
   * which runs outside React and may run before the session has been restored.
   */
  whenSettled: () => Promise<CurrentUserView | null>;
  signIn: (email: string, password: string) => Promise<void>;
  /** Resolves with whether the address still has to be confirmed by email. */
  signUp: (email: string, password: string, metadata: SignUpMetadata) => Promise<{ needsConfirmation: boolean }>;
  signOut: () => Promise<void>;
  resend: (email: string) => Promise<void>;
  /** Mails a password-recovery link (the answer is the same whether or not the account exists). */
  requestPasswordReset: (email: string) => Promise<void>;
  /**
   * Sets a new password; other sessions end. A recovery session needs no current password; any
   * other session proves it (`current_password`). A refusal rejects with supabase-js's error (its `code`).
   */
  updatePassword: (password: string, currentPassword?: string) => Promise<void>;
  /** True once supabase-js announced PASSWORD_RECOVERY: the session came from a recovery link. */
  recovering: boolean;
};

const AuthContext = createContext<AuthContextValue | null>(null);

/** Where the emailed confirmation link lands: /auth shows 'Email Confirmed!'. */
const confirmRedirect = () => `${window.location.origin}/auth`;

function failure(title: string, err: unknown, fallback: string): Error {
  const message = errorMessage(err, fallback);
  toast({ variant: "destructive", title, description: message });
  return err instanceof Error ? err : new Error(message);
}

/**
 * Whether the page must load supabase-js at once: a session may be stored, or this is the reset
 * page a recovery link opens. Anyone else is signed out, and the library loads when they sign in.
 */
export const mayHaveSession = () => hasStoredSession() || window.location.pathname === RESET_PASSWORD_PATH;

export function AuthProvider({
  children,
  getClient = getAuthClient,
  restoreAtStart = mayHaveSession,
  onClient = onAuthClient,
}: {
  children: ReactNode;
  getClient?: () => Promise<IdentityClient>;
  /** Read once, at mount. */
  restoreAtStart?: () => boolean;
  /** Tells of a client someone else created (a page that opens a session from its link). */
  onClient?: (listener: (client: IdentityClient) => void) => () => void;
}) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session | null>(null);
  const [restoring] = useState(restoreAtStart);
  const [ready, setReady] = useState(!restoring);
  const [recovering, setRecovering] = useState(false);
  const clientRef = useRef<IdentityClient | null>(null);
  const attachRef = useRef<(client: IdentityClient) => void>(() => {});

  useEffect(() => {
    let cancelled = false;
    let unsubscribe = () => {};
    let subscribed: IdentityClient | null = null;
    // Follows the client's auth events, once per client, from whichever path created it.
    const attach = (client: IdentityClient) => {
      if (cancelled || subscribed === client) return;
      unsubscribe();
      subscribed = client;
      clientRef.current = client;
      const { data } = client.auth.onAuthStateChange((event, next) => {
        setAccessToken(next?.access_token ?? null);
        setSession(next);
        if (event === "INITIAL_SESSION") setReady(true);
        if (event === "PASSWORD_RECOVERY") setRecovering(true);
        if (event === "SIGNED_IN" || event === "TOKEN_REFRESHED" || event === "USER_UPDATED" || event === "PASSWORD_RECOVERY") {
          void queryClient.invalidateQueries({ queryKey: currentUserKeys.all });
        }
        // Nothing cached for the previous account may outlive its session.
        if (event === "SIGNED_OUT") queryClient.removeQueries();
      });
      unsubscribe = () => data.subscription.unsubscribe();
    };
    attachRef.current = attach;
    const stopListening = onClient(attach);
    if (restoring) {
      getClient()
        .then(attach)
        .catch(() => {
          // Without /api/config there is no session to restore: behave as signed out.
          if (!cancelled) setReady(true);
        });
    }
    // Another tab signed in (it wrote the session): follow it here too.
    const onStorage = (e: StorageEvent) => {
      if (e.key && STORED_SESSION_KEY.test(e.key) && e.newValue) void getClient().then(attach, () => {});
    };
    window.addEventListener("storage", onStorage);
    return () => {
      cancelled = true;
      unsubscribe();
      stopListening();
      window.removeEventListener("storage", onStorage);
    };
  }, [getClient, onClient, restoring, queryClient]);

  const profile = useQuery({
    ...currentUserQueryOptions(),
    // The first ask joins the profile request main.tsx started with the stored token.
    queryFn: () => joinEarlyProfile(getCurrentUser),
    enabled: Boolean(session),
  });

  // A session the server no longer accepts (deleted account, revoked) is dropped locally.
  useEffect(() => {
    if (profile.error instanceof ApiError && profile.error.status === 401) void clientRef.current?.auth.signOut({ scope: "local" });
  }, [profile.error]);

  // An action loads the library when nothing has yet (a signed-out visitor signing in).
  const client = useCallback(async () => {
    const current = clientRef.current ?? (await getClient());
    attachRef.current(current);
    return current;
  }, [getClient]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      try {
        const auth = (await client()).auth;
        const { data, error } = await auth.signInWithPassword({
          email,
          password,
        });
        if (error) throw new Error(error.message);
        setAccessToken(data.session.access_token);
        setSession(data.session);
        rememberEmail(email);
        await queryClient.fetchQuery(currentUserQueryOptions());
      } catch (err) {
        throw failure(AUTH_TOAST.errorTitle, err, AUTH_TOAST.loginFailed);
      }
      toast({ title: AUTH_TOAST.loggedIn });
    },
    [client, queryClient],
  );

  const signUp = useCallback(
    async (email: string, password: string, metadata: SignUpMetadata) => {
      let needsConfirmation: boolean;
      try {
        const auth = (await client()).auth;
        const { data, error } = await auth.signUp({
          email,
          password,
          options: { data: metadata, emailRedirectTo: confirmRedirect() },
        });
        if (error) throw new Error(error.message);
        rememberEmail(email);
        needsConfirmation = !data.session;
        if (needsConfirmation && data.user) rememberSignUp(email, data.user.id);
      } catch (err) {
        throw failure(AUTH_TOAST.errorTitle, err, AUTH_TOAST.registerFailed);
      }
      toast({ title: AUTH_TOAST.accountCreated });
      return { needsConfirmation };
    },
    [client],
  );

  const signOut = useCallback(async () => {
    try {
      const { error } = await (await client()).auth.signOut();
      if (error) throw new Error(error.message);
    } catch (err) {
      throw failure(AUTH_TOAST.errorTitle, err, AUTH_TOAST.logoutFailed);
    }
    setAccessToken(null);
    setSession(null);
    queryClient.removeQueries();
    toast({ title: AUTH_TOAST.loggedOut });
  }, [client, queryClient]);

  const resend = useCallback(
    async (email: string) => {
      try {
        const { error } = await (
          await client()
        ).auth.resend({
          type: "signup",
          email,
          options: { emailRedirectTo: confirmRedirect() },
        });
        if (error) throw new Error(error.message);
      } catch (err) {
        throw failure(AUTH_TOAST.errorTitle, err, AUTH_TOAST.resendFailed);
      }
      toast({
        title: AUTH_TOAST.emailSentTitle,
        description: AUTH_TOAST.emailSent,
      });
    },
    [client],
  );

  const requestPasswordReset = useCallback(
    async (email: string) => {
      try {
        const { error } = await (
          await client()
        ).auth.resetPasswordForEmail(email, {
          redirectTo: `${window.location.origin}${RESET_PASSWORD_PATH}`,
        });
        if (error) throw new Error(error.message);
        rememberEmail(email);
      } catch (err) {
        throw failure(AUTH_TOAST.errorTitle, err, AUTH_TOAST.resetFailed);
      }
    },
    [client],
  );

  const updatePassword = useCallback(
    async (password: string, currentPassword?: string) => {
      try {
        const { error } = await (await client()).auth.updateUser(currentPassword === undefined ? { password } : { password, current_password: currentPassword });
        if (error) throw error;
      } catch (err) {
        throw failure(AUTH_TOAST.passwordUpdateFailed, err, AUTH_TOAST.passwordUpdateFailed);
      }
      setRecovering(false);
      toast({
        title: AUTH_TOAST.passwordUpdated,
        description: AUTH_TOAST.passwordUpdatedText,
      });
    },
    [client],
  );

  const user = session ? (profile.data ?? null) : null;
  const isLoading = !ready || (Boolean(session) && profile.isPending);

  const settled = useRef<{
    isLoading: boolean;
    user: CurrentUserView | null;
    waiters: ((user: CurrentUserView | null) => void)[];
  }>({
    isLoading: true,
    user: null,
    waiters: [],
  });
  // Before paint, so a guard that runs right after this render reads this render's answer.
  useLayoutEffect(() => {
    const gate = settled.current;
    gate.isLoading = isLoading;
    gate.user = user;
    if (isLoading) return;
    const waiters = gate.waiters.splice(0);
    for (const resolve of waiters) resolve(user);
  }, [isLoading, user]);
  const whenSettled = useCallback(() => {
    const gate = settled.current;
    if (!gate.isLoading) return Promise.resolve(gate.user);
    return new Promise<CurrentUserView | null>((resolve) => gate.waiters.push(resolve));
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      session,
      isLoading,
      whenSettled,
      signIn,
      signUp,
      signOut,
      resend,
      requestPasswordReset,
      updatePassword,
      recovering,
    }),
    [user, session, isLoading, whenSettled, signIn, signUp, signOut, resend, requestPasswordReset, updatePassword, recovering],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error(AUTH_TOAST.outsideProvider);
  return value;
}
