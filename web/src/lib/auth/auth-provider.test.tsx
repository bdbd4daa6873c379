import type { Session } from "@supabase/supabase-js";
import type { IdentityClient } from "@web/lib/auth-client";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, renderHook, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LAST_EMAIL_KEY } from "@shared/constants";
import { AUTH_TOAST } from "@shared/messages";
import type { CurrentUserView } from "@shared/schemas/auth";
import { resetToasts, useToasts } from "@web/lib/toast-store";
import { getAccessToken, setAccessToken } from "@web/lib/api";
import { createQueryClient } from "@web/lib/query-client";
import { currentUserKeys } from "./profile-key";
import { testCustomer, testSession } from "@web/test/accounts";
import { AuthProvider, mayHaveSession, useAuth, type AuthContextValue } from "./auth-provider";
import { signUpProof } from "./sign-up-proof";

type Listener = (event: string, session: Session | null) => void;

/** A stand-in for supabase-js's auth client: only what the provider calls. */
function fakeClient(overrides: Record<string, unknown> = {}) {
  const listeners: Listener[] = [];
  const auth = {
    onAuthStateChange: vi.fn((cb: Listener) => {
      listeners.push(cb);
      queueMicrotask(() => cb("INITIAL_SESSION", null));
      return { data: { subscription: { unsubscribe: vi.fn() } } };
    }),
    signInWithPassword: vi.fn(),
    signUp: vi.fn(),
    signOut: vi.fn(async () => ({ error: null })),
    resend: vi.fn(async () => ({ data: {}, error: null })),
    ...overrides,
  };
  const emit = (event: string, session: Session | null) => listeners.forEach((l) => l(event, session));
  return { client: { auth } as unknown as IdentityClient, auth, emit };
}

const session = testSession;
const profile: CurrentUserView = { ...testCustomer, shopwindows_info: true };

let current: AuthContextValue;
function Capture() {
  // eslint-disable-next-line react-hooks/globals -- the tests read the context the provider gave through this capture
  current = useAuth();
  const toasts = useToasts();
  return <output data-testid="toast">{toasts.map((t) => `${t.title as string}|${(t.description as string) ?? ""}`).join(";")}</output>;
}

/** `storedSession`: whether the browser holds a session, i.e. whether the provider loads the client at mount. */
function renderProvider(client: IdentityClient, { storedSession = true, getClient = async () => client } = {}) {
  const queryClient = createQueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider getClient={getClient} restoreAtStart={() => storedSession} onClient={() => () => {}}>
        <Capture />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return queryClient;
}

afterEach(() => {
  act(() => resetToasts());
  setAccessToken(null);
  vi.unstubAllGlobals();
});

describe("useAuth", () => {
  it("throws outside its provider", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => renderHook(() => useAuth())).toThrow(AUTH_TOAST.outsideProvider);
    vi.mocked(console.error).mockRestore();
  });

  it("signs in: sets the token and the server's user view, remembers the email, toasts", async () => {
    const fetchMock = vi.fn(async () => Response.json(profile));
    vi.stubGlobal("fetch", fetchMock);
    const fake = fakeClient({
      signInWithPassword: vi.fn(async () => {
        fake.emit("SIGNED_IN", session);
        return { data: { session, user: session.user }, error: null };
      }),
    });
    renderProvider(fake.client);
    await waitFor(() => expect(current.isLoading).toBe(false));
    expect(current.user).toBeNull();

    await act(() => current.signIn("owner@store.example", "secret1"));
    expect(current.user).toEqual(profile);
    expect(getAccessToken()).toBe("access-1");
    expect(window.localStorage.getItem(LAST_EMAIL_KEY)).toBe("owner@store.example");
    expect(screen.getByTestId("toast").textContent).toBe(`${AUTH_TOAST.loggedIn}|`);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/profile");
    expect((init.headers as Record<string, string>).Authorization).toBe("Bearer access-1");
  });

  it("rethrows the server's message on a failed sign-in and shows it in an 'Error' toast", async () => {
    const fake = fakeClient({
      signInWithPassword: vi.fn(async () => ({ data: { session: null, user: null }, error: new Error("Invalid login credentials") })),
    });
    renderProvider(fake.client);
    await waitFor(() => expect(current.isLoading).toBe(false));
    await expect(act(() => current.signIn("owner@store.example", "wrong-pass"))).rejects.toThrow("Invalid login credentials");
    expect(screen.getByTestId("toast").textContent).toBe(`${AUTH_TOAST.errorTitle}|Invalid login credentials`);
    expect(current.user).toBeNull();
  });

  it("signs up with username, name and company, and reports that confirmation is needed", async () => {
    const fake = fakeClient({ signUp: vi.fn(async () => ({ data: { user: { id: "u2" }, session: null }, error: null })) });
    renderProvider(fake.client);
    await waitFor(() => expect(current.isLoading).toBe(false));
    let result: { needsConfirmation: boolean } | undefined;
    await act(async () => {
      result = await current.signUp("new@store.example", "secret1", { username: "newbie", name: "newbie", company: "Miami Cars" });
    });
    expect(result).toEqual({ needsConfirmation: true });
    // The account id the sign-up answered with, for "I've Confirmed" to ask with.
    expect(signUpProof("New@store.example")).toBe("u2");
    expect(fake.auth.signUp).toHaveBeenCalledWith({
      email: "new@store.example",
      password: "secret1",
      options: { data: { username: "newbie", name: "newbie", company: "Miami Cars" }, emailRedirectTo: `${window.location.origin}/auth` },
    });
    expect(screen.getByTestId("toast").textContent).toBe(`${AUTH_TOAST.accountCreated}|`);
  });

  it("falls back to 'Failed to register' and 'Failed to resend email' when there is no message", async () => {
    const fake = fakeClient({
      signUp: vi.fn(async () => {
        throw new Error("");
      }),
      resend: vi.fn(async () => ({ data: null, error: new Error("") })),
    });
    renderProvider(fake.client);
    await waitFor(() => expect(current.isLoading).toBe(false));
    await expect(act(() => current.signUp("a@b.example", "secret1", { username: "abc", name: "abc", company: "c" }))).rejects.toThrow();
    expect(screen.getByTestId("toast").textContent).toBe(`${AUTH_TOAST.errorTitle}|${AUTH_TOAST.registerFailed}`);
    await expect(act(() => current.resend("a@b.example"))).rejects.toThrow();
    expect(screen.getByTestId("toast").textContent).toBe(`${AUTH_TOAST.errorTitle}|${AUTH_TOAST.resendFailed}`);
  });

  it("resends the confirmation email with a toast", async () => {
    const fake = fakeClient();
    renderProvider(fake.client);
    await waitFor(() => expect(current.isLoading).toBe(false));
    await act(() => current.resend("new@store.example"));
    expect(fake.auth.resend).toHaveBeenCalledWith({
      type: "signup",
      email: "new@store.example",
      options: { emailRedirectTo: `${window.location.origin}/auth` },
    });
    expect(screen.getByTestId("toast").textContent).toBe(`${AUTH_TOAST.emailSentTitle}|${AUTH_TOAST.emailSent}`);
  });

  it("signs out: clears the user, the token and the cache", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json(profile)),
    );
    const fake = fakeClient({
      onAuthStateChange: vi.fn((cb: Listener) => {
        queueMicrotask(() => cb("INITIAL_SESSION", session));
        return { data: { subscription: { unsubscribe: vi.fn() } } };
      }),
    });
    const queryClient = renderProvider(fake.client);
    await waitFor(() => expect(current.user).toEqual(profile));
    expect(getAccessToken()).toBe("access-1");
    queryClient.setQueryData(["/api/agents"], [{ id: 1, name: "Front desk" }]);

    await act(() => current.signOut());
    expect(current.user).toBeNull();
    expect(getAccessToken()).toBeNull();
    expect(queryClient.getQueryData(["/api/agents"])).toBeUndefined();
    expect(queryClient.getQueryData(currentUserKeys.all)).toBeUndefined();
    expect(screen.getByTestId("toast").textContent).toBe(`${AUTH_TOAST.loggedOut}|`);
  });

  it("whenSettled waits for the restored session and its profile, then answers the user, or null when signed out", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json(profile)),
    );
    const signedIn = fakeClient({
      onAuthStateChange: vi.fn((cb: Listener) => {
        queueMicrotask(() => cb("INITIAL_SESSION", session));
        return { data: { subscription: { unsubscribe: vi.fn() } } };
      }),
    });
    renderProvider(signedIn.client);
    const settled = current.whenSettled();
    expect(current.isLoading).toBe(true);
    await expect(settled).resolves.toEqual(profile);

    await act(() => current.signOut());
    await expect(current.whenSettled()).resolves.toBeNull();
  });

  it("rethrows a failed sign-out with 'Failed to log out' when the server gives no message", async () => {
    const fake = fakeClient({ signOut: vi.fn(async () => ({ error: new Error("") })) });
    renderProvider(fake.client);
    await waitFor(() => expect(current.isLoading).toBe(false));
    await expect(act(() => current.signOut())).rejects.toThrow();
    expect(screen.getByTestId("toast").textContent).toBe(`${AUTH_TOAST.errorTitle}|${AUTH_TOAST.logoutFailed}`);
  });
});

describe("a visitor without a stored session", () => {
  afterEach(() => {
    window.localStorage.clear();
    window.history.replaceState(null, "", "/");
  });

  it("is signed out at once and loads the client only when signing in, then follows its events", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json(profile)),
    );
    const fake = fakeClient({
      signInWithPassword: vi.fn(async () => {
        fake.emit("SIGNED_IN", session);
        return { data: { session, user: session.user }, error: null };
      }),
    });
    const getClient = vi.fn(async () => fake.client);
    renderProvider(fake.client, { storedSession: false, getClient });
    expect(current.isLoading).toBe(false);
    expect(current.user).toBeNull();
    await expect(current.whenSettled()).resolves.toBeNull();
    expect(getClient).not.toHaveBeenCalled();

    await act(() => current.signIn("owner@store.example", "secret1"));
    expect(getClient).toHaveBeenCalled();
    expect(current.user).toEqual(profile);
    // Subscribed once: a later event (here a sign-out elsewhere) reaches the provider.
    expect(fake.auth.onAuthStateChange).toHaveBeenCalledTimes(1);
    act(() => fake.emit("SIGNED_OUT", null));
    await waitFor(() => expect(current.user).toBeNull());
    expect(getAccessToken()).toBeNull();
  });

  it("follows a client another page created (an activation link's session)", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json(profile)),
    );
    const fake = fakeClient();
    let announce: (client: IdentityClient) => void = () => {};
    const queryClient = createQueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <AuthProvider
          getClient={async () => fake.client}
          restoreAtStart={() => false}
          onClient={(listener) => {
            announce = listener;
            return () => {};
          }}
        >
          <Capture />
        </AuthProvider>
      </QueryClientProvider>,
    );
    await act(async () => announce(fake.client));
    act(() => fake.emit("SIGNED_IN", session));
    await waitFor(() => expect(current.user).toEqual(profile));
  });

  it("loads the client at start when supabase-js's session key is stored, or on the reset page", () => {
    expect(mayHaveSession()).toBe(false);
    window.localStorage.setItem("sb-127-auth-token", "");
    expect(mayHaveSession()).toBe(false);
    window.localStorage.setItem("sb-127-auth-token", JSON.stringify({ access_token: "a" }));
    expect(mayHaveSession()).toBe(true);
    window.localStorage.clear();
    window.localStorage.setItem("sb-abcdefgh-auth-token-code-verifier", "v");
    expect(mayHaveSession()).toBe(false);
    window.history.replaceState(null, "", "/reset-password");
    expect(mayHaveSession()).toBe(true);
  });
});
