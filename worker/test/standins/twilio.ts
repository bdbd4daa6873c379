// Twilio REST stand-in for the telephony adapter's tests: the 2010-04-01 account, AvailablePhoneNumbers
// Local and IncomingPhoneNumbers endpoints, with Twilio's paths, Basic auth, form bodies, snake_case
// answers and error JSON ({ code, message, more_info, status }).
// Each account SID is its own account with its own bought numbers, so test files stay independent:
// any well-formed SID (AC + 32 hex) is accepted together with TWILIO_STANDIN.authToken.
import type { StandinHandler, StandinRequest, StandinResponse } from "./server";

/** The auth token every stand-in account answers to; tests import this (no I/O on import). */
export const TWILIO_STANDIN = { authToken: "standin-twilio-auth-token" } as const;

/** Where the stand-in's inventory is; other area codes have numbers without a known place. */
const PLACES: Record<string, { locality: string; region: string; postal: string }> = {
  "305": { locality: "Miami", region: "FL", postal: "33101" },
  "212": { locality: "New York", region: "NY", postal: "10001" },
  "918": { locality: "Tulsa", region: "OK", postal: "74103" },
};
const NUMBERS_PER_AREA_CODE = 60;

type Bought = { sid: string; phone_number: string; friendly_name: string; date_created: string };
type Account = { sid: string; bought: Map<string, Bought> };

const API = "/2010-04-01/Accounts";

export function twilioError(status: number, code: number, message: string): StandinResponse {
  return { status, json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

const friendly = (e164: string) => `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;

/** The stand-in's inventory of an area code: +1 AAA 555 01xx (fictional exchange). */
function inventory(area: string): string[] {
  return Array.from({ length: NUMBERS_PER_AREA_CODE }, (_, i) => `+1${area}55501${String(i).padStart(2, "0")}`);
}

function hex32() {
  let s = "";
  for (let i = 0; i < 32; i++) s += Math.floor(Math.random() * 16).toString(16);
  return s;
}

export async function twilioStandin(): Promise<StandinHandler> {
  const accounts = new Map<string, Account>();
  const account = (sid: string) => {
    let a = accounts.get(sid);
    if (!a) {
      a = { sid, bought: new Map() };
      accounts.set(sid, a);
    }
    return a;
  };

  /** Basic auth must carry a well-formed SID and the stand-in's token; answers the SID. */
  const authenticate = (req: StandinRequest): string | null => {
    const header = req.headers.authorization;
    if (typeof header !== "string" || !header.startsWith("Basic ")) return null;
    const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const sid = decoded.slice(0, colon);
    const token = decoded.slice(colon + 1);
    if (colon < 0 || !/^AC[0-9a-f]{32}$/.test(sid) || token !== TWILIO_STANDIN.authToken) return null;
    return sid;
  };

  const available = (a: Account, area: string) => {
    // Per account, so parallel test files never take each other's numbers.
    const taken = a.bought;
    const place = PLACES[area];
    return inventory(area)
      .filter((n) => !taken.has(n))
      .map((n) => ({
        friendly_name: friendly(n),
        phone_number: n,
        lata: place ? "460" : null,
        rate_center: place ? place.locality.toUpperCase() : null,
        locality: place?.locality ?? null,
        region: place?.region ?? null,
        postal_code: place?.postal ?? null,
        iso_country: "US",
        address_requirements: "none",
        beta: false,
        capabilities: { voice: true, SMS: true, MMS: true },
        account: a.sid,
      }));
  };

  const incoming = (a: Account, b: Bought) => ({
    account_sid: a.sid,
    address_requirements: "none",
    api_version: "2010-04-01",
    beta: false,
    capabilities: { voice: true, sms: true, mms: true, fax: false },
    date_created: b.date_created,
    date_updated: b.date_created,
    friendly_name: b.friendly_name,
    origin: "twilio",
    phone_number: b.phone_number,
    sid: b.sid,
    status: "in-use",
    uri: `${API}/${a.sid}/IncomingPhoneNumbers/${b.sid}.json`,
  });

  return async (req) => {
    const m = /^\/2010-04-01\/Accounts\/([^/.]+)(\.json|\/.*)$/.exec(req.path);
    if (!m) return twilioError(404, 20404, `The requested resource ${req.path} was not found`);
    const sid = authenticate(req);
    if (!sid) return twilioError(401, 20003, "Authenticate");
    if (m[1] !== sid) return twilioError(404, 20404, `The requested resource ${req.path} was not found`);
    const a = account(sid);
    const rest = m[2];

    if (rest === ".json" && req.method === "GET") {
      return {
        json: {
          sid,
          owner_account_sid: sid,
          friendly_name: "Stand-in account",
          status: "active",
          type: "Full",
          date_created: "Mon, 01 Jan 2024 00:00:00 +0000",
          date_updated: "Mon, 01 Jan 2024 00:00:00 +0000",
          uri: `${API}/${sid}.json`,
        },
      };
    }

    const search = /^\/AvailablePhoneNumbers\/([A-Z]{2})\/Local\.json$/.exec(rest);
    if (search && req.method === "GET") {
      if (search[1] !== "US") return twilioError(404, 20404, `The requested resource ${req.path} was not found`);
      const q = req.query;
      const area = q.get("AreaCode");
      if (area !== null && !/^\d{3}$/.test(area)) return twilioError(400, 21452, "Invalid AreaCode");
      for (const flag of ["SmsEnabled", "VoiceEnabled"]) {
        const v = q.get(flag);
        if (v !== null && v !== "true" && v !== "false") return twilioError(400, 20001, `Invalid ${flag}`);
      }
      const pageSize = Number(q.get("PageSize") ?? "50");
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) return twilioError(400, 20001, "Invalid PageSize");
      let numbers;
      if (area) numbers = available(a, area);
      else {
        const lists = Object.keys(PLACES).map((ac) => available(a, ac));
        numbers = lists[0].flatMap((_, i) => lists.map((l) => l[i]).filter(Boolean));
      }
      return {
        json: {
          uri: `${API}/${sid}/AvailablePhoneNumbers/US/Local.json?${q}`,
          available_phone_numbers: numbers.slice(0, pageSize),
        },
      };
    }

    if (rest === "/IncomingPhoneNumbers.json" && req.method === "POST") {
      if (!String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
        return twilioError(400, 20001, "Request body must be application/x-www-form-urlencoded");
      }
      const phone = req.form().get("PhoneNumber");
      if (!phone || !/^\+1\d{10}$/.test(phone)) return twilioError(400, 21421, "PhoneNumber is invalid");
      const area = phone.slice(2, 5);
      const free = available(a, area).some((n) => n.phone_number === phone);
      if (!free) return twilioError(400, 21422, "PhoneNumber requested is not available");
      const bought: Bought = {
        sid: `PN${hex32()}`,
        phone_number: phone,
        friendly_name: friendly(phone),
        date_created: new Date().toUTCString().replace("GMT", "+0000"),
      };
      a.bought.set(phone, bought);
      return { status: 201, json: incoming(a, bought) };
    }

    if (rest === "/IncomingPhoneNumbers.json" && req.method === "GET") {
      const list = [...a.bought.values()].map((b) => incoming(a, b));
      return { json: { incoming_phone_numbers: list, page: 0, page_size: 50, uri: `${API}/${sid}/IncomingPhoneNumbers.json` } };
    }

    const one = /^\/IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(rest);
    if (one && req.method === "DELETE") {
      const entry = [...a.bought.values()].find((b) => b.sid === one[1]);
      if (!entry) return twilioError(404, 20404, `The requested resource ${req.path} was not found`);
      a.bought.delete(entry.phone_number);
      return { status: 204, text: "" };
    }

    return twilioError(404, 20404, `The requested resource ${req.path} was not found`);
  };
}
