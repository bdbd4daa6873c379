// The supabase-js client, configured from GET /api/config. In local mode the Worker itself
// serves a GoTrue-compatible /auth/v1, so the same client code runs in both modes.
import type { IdentityClient } from "./identity-client";
import { queryOptions } from "@tanstack/react-query";
import type { AppConfigResponse } from "@shared/schemas/config";
import { APP_CONFIG_ELEMENT_ID } from "@shared/first-paint/shell";
import { ApiError } from "./api";
import { STORED_SESSION_KEY } from "./stored-session";

export type AppConfig = AppConfigResponse;

export const APP_CONFIG_PATH = "/api/config";

/** Where an emailed password-recovery link lands (the set-new-password form). */
export const RESET_PASSWORD_PATH = "/reset-password";

/**
 * supabase-js adopts a session from the URL only for a recovery link on the reset page (it then
 * clears the fragment and announces PASSWORD_RECOVERY). Any other fragment, such as a sign-up
 * confirmation landing on /auth, is left to the page that shows it.
 */
export const isRecoveryCallback = (url: URL, params: Record<string, string>) =>
  url.pathname === RESET_PASSWORD_PATH && params.type === "recovery" && Boolean(params.access_token);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `appConfigResponse` (shared/schemas/config.ts) checked by hand, keeping only its fields as the
 * schema does: every private page restores its session through this answer, and loading and
 * building zod's schemas first cost the first page a long task on a slow phone (decision 027). A
 * property test holds the two to the same answers.
 */
export function readAppConfig(value: unknown): AppConfig | null {
  if (!isRecord(value) || !isRecord(value.auth) || typeof value.localMailbox !== "boolean") return null;
  const { mode, url, anonKey } = value.auth;
  if ((mode !== "local" && mode !== "supabase") || typeof url !== "string" || typeof anonKey !== "string") return null;
  return { auth: { mode, url, anonKey }, localMailbox: value.localMailbox };
}

let configPromise: Promise<AppConfig> | null = null;
export type { IdentityClient } from "./identity-client";

let clientPromise: Promise<IdentityClient> | null = null;

/** The configuration the Worker wrote into the page's shell (decision 032), when it is there and well formed. */
export function shellAppConfig(doc: Document = document): AppConfig | null {
  const text = doc.getElementById(APP_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return readAppConfig(JSON.parse(text));
  } catch {
    return null;
  }
}

/** From the shell, else fetched once per page load; a failed fetch is forgotten so a later call can try again. */
export function getAppConfig(): Promise<AppConfig> {
  const inShell = configPromise ? null : shellAppConfig();
  if (inShell) configPromise = Promise.resolve(inShell);
  // Not a product call: it runs before there can be a session, so it carries no bearer.
  configPromise ??= fetch(APP_CONFIG_PATH, { credentials: "include" })
    .then(async (res) => {
      if (!res.ok) throw new ApiError(res.status, res.statusText, await res.text().catch(() => ""));
      const config = readAppConfig(await res.json());
      if (!config) throw new Error(`${APP_CONFIG_PATH}: unexpected answer`);
      return config;
    })
    .catch((err: unknown) => {
      configPromise = null;
      throw err;
    });
  return configPromise;
}


/**
 * Whether this browser may hold a session, read without loading supabase-js: a visitor who never
 * signed in does not download the library until they sign in or register (decision 023). Storage
 * that cannot be read answers true, so a session is never missed.
 */
export function hasStoredSession(): boolean {
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i);
      if (key && STORED_SESSION_KEY.test(key) && window.localStorage.getItem(key)) return true;
    }
    return false;
  } catch {
    return true;
  }
}

const clientListeners = new Set<(client: IdentityClient) => void>();
let createdClient: IdentityClient | null = null;

/**
 * Calls `listener` with the client once it exists (at once when it already does), whoever asked
 * for it first: the auth provider follows a session that a page opened by itself.
 */
export function onAuthClient(listener: (client: IdentityClient) => void): () => void {
  clientListeners.add(listener);
  if (createdClient) listener(createdClient);
  return () => clientListeners.delete(listener);
}

export function getAuthClient(): Promise<IdentityClient> {
  // The library loads in parallel with the configuration, as its own chunk.
  clientPromise ??= Promise.all([getAppConfig(), import("./identity-client")])
    .then(([{ auth }, { createIdentityClient }]) => {
      const client = createIdentityClient(auth, isRecoveryCallback);
      createdClient = client;
      for (const listener of clientListeners) listener(client);
      return client;
    })
    .catch((err: unknown) => {
      clientPromise = null;
      throw err;
    });
  return clientPromise;
}

/** The same configuration for components, through the query cache. */
export const appConfigQueryOptions = () => queryOptions({ queryKey: [APP_CONFIG_PATH], queryFn: getAppConfig });
