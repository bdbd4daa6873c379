// Twilio adapter over the 2010-04-01 REST API: account check, available Local numbers,
// buying (IncomingPhoneNumbers) and releasing. Basic auth with the account SID and auth token.
import { PHONE_API_TEXT } from "@shared/messages";
import { providerError } from "../../lib/errors";
import { log } from "../../lib/log";
import { fetchFailure, providerSignal } from "../timeout";
import type { AvailableNumber, PurchasedNumber, SearchQuery, TelephonyPort } from "./port";

export const TWILIO_DEFAULT_BASE_URL = "https://api.twilio.com";

export type TwilioOptions = { accountSid: string; authToken: string; baseUrl?: string; timeoutMs?: number };

/** The fields we read of Twilio's snake_case number objects. */
type TwilioNumber = {
  sid?: string;
  phone_number?: string;
  friendly_name?: string | null;
  locality?: string | null;
  region?: string | null;
  iso_country?: string | null;
};

const orNull = (v: string | null | undefined) => (v && v.trim() ? v : null);

export class TwilioTelephony implements TelephonyPort {
  readonly kind = "twilio" as const;
  private readonly base: string;
  private readonly account: string;
  private readonly auth: string;
  private readonly timeoutMs: number | undefined;

  constructor(opts: TwilioOptions) {
    this.timeoutMs = opts.timeoutMs;
    this.base = (opts.baseUrl ?? TWILIO_DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.account = `/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}`;
    this.auth = `Basic ${btoa(`${opts.accountSid}:${opts.authToken}`)}`;
  }

  private async request<T>(method: string, path: string, opts: { query?: URLSearchParams; form?: URLSearchParams } = {}) {
    const search = opts.query?.toString();
    const url = `${this.base}${this.account}${path}${search ? `?${search}` : ""}`;
    const headers: Record<string, string> = { authorization: this.auth, accept: "application/json" };
    if (opts.form) headers["content-type"] = "application/x-www-form-urlencoded";
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body: opts.form?.toString(), signal: providerSignal(this.timeoutMs) });
    } catch (e) {
      throw providerError("Twilio", `could not reach Twilio (${fetchFailure(e)})`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      throw providerError("Twilio", `could not reach Twilio (${fetchFailure(e)})`);
    }
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!res.ok) {
      // Twilio's error body: { code, message, more_info, status }.
      const message = (body as { message?: unknown } | null)?.message;
      throw providerError("Twilio", typeof message === "string" && message ? message : `HTTP ${res.status}`);
    }
    return body as T;
  }

  /**
   * Whether the account answers and is active. The answer goes to every signed-in user, so it names
   * neither the account (friendly name, SID) nor Twilio's error text, which can quote the account path;
   * the detail is logged for the operator.
   */
  async health() {
    try {
      const account = await this.request<{ status?: string }>("GET", ".json");
      if (account?.status && account.status !== "active") {
        log(null, "warn", "twilio account not active", { status: account.status });
        return { ok: false, message: PHONE_API_TEXT.twilioInactive };
      }
      return { ok: true, message: PHONE_API_TEXT.twilioHealthy };
    } catch (e) {
      log(null, "warn", "twilio health check failed", { error: (e as Error).message });
      return { ok: false, message: PHONE_API_TEXT.twilioUnreachable };
    }
  }

  async searchAvailable(query: SearchQuery): Promise<AvailableNumber[]> {
    const params = new URLSearchParams();
    if (query.areaCode) params.set("AreaCode", query.areaCode);
    if (query.sms !== undefined) params.set("SmsEnabled", String(query.sms));
    if (query.voice !== undefined) params.set("VoiceEnabled", String(query.voice));
    params.set("PageSize", String(query.limit));
    const page = await this.request<{ available_phone_numbers?: TwilioNumber[] }>(
      "GET",
      `/AvailablePhoneNumbers/${encodeURIComponent(query.country)}/Local.json`,
      { query: params },
    );
    return (page?.available_phone_numbers ?? [])
      .filter((n): n is TwilioNumber & { phone_number: string } => typeof n.phone_number === "string")
      .slice(0, query.limit)
      .map((n) => ({
        phoneNumber: n.phone_number,
        friendlyName: n.friendly_name || n.phone_number,
        locality: orNull(n.locality),
        region: orNull(n.region),
        isoCountry: n.iso_country || query.country,
      }));
  }

  async purchase(phoneNumber: string): Promise<PurchasedNumber> {
    const n = await this.request<TwilioNumber>("POST", "/IncomingPhoneNumbers.json", {
      form: new URLSearchParams({ PhoneNumber: phoneNumber }),
    });
    if (!n?.sid) throw providerError("Twilio", "the purchase answer has no number sid");
    const bought = n.phone_number || phoneNumber;
    return {
      sid: n.sid,
      phoneNumber: bought,
      friendlyName: n.friendly_name || bought,
      // IncomingPhoneNumber carries no location; the service fills it in when it knows the area code.
      locality: orNull(n.locality),
      region: orNull(n.region),
      isoCountry: n.iso_country || (bought.startsWith("+1") ? "US" : ""),
    };
  }

  async release(sid: string): Promise<void> {
    await this.request("DELETE", `/IncomingPhoneNumbers/${encodeURIComponent(sid)}.json`);
  }
}
