// Local telephony adapter (default when Twilio is not configured): a deterministic number
// inventory. Each area code has a fixed list of numbers drawn from a PRNG seeded by the area
// code, so a search shows the same numbers every time, less the ones already bought here.
import { inArray } from "drizzle-orm";
import { PHONE_API_TEXT } from "@shared/messages";
import type { Database } from "../../db/client";
import { phoneNumbers } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import { fnv1a32, mulberry32 } from "../../lib/random";
import { AREA_CODES, areaCodeOf, friendlyNumber } from "./area-codes";
import type { AvailableNumber, PurchasedNumber, SearchQuery, TelephonyPort } from "./port";

/** Numbers each area code holds in the local inventory. */
export const LOCAL_NUMBERS_PER_AREA_CODE = 200;
/** Candidates checked against bought numbers per query (D1 allows 100 bound parameters). */
const CHECK_CHUNK = 90;

const inventoryCache = new Map<string, string[]>();

/** The area code's numbers, in a fixed order. Exchanges avoid N11 service codes and 555. */
export function localInventory(areaCode: string): string[] {
  if (!/^[2-9]\d{2}$/.test(areaCode)) return [];
  const cached = inventoryCache.get(areaCode);
  if (cached) return cached;
  const next = mulberry32(fnv1a32(`local-telephony:${areaCode}`));
  const digit = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const seen = new Set<string>();
  while (seen.size < LOCAL_NUMBERS_PER_AREA_CODE) {
    const exchange = `${digit(2, 9)}${digit(0, 9)}${digit(0, 9)}`;
    if (exchange.endsWith("11") || exchange === "555") continue;
    const line = String(digit(0, 9999)).padStart(4, "0");
    seen.add(`+1${areaCode}${exchange}${line}`);
  }
  const list = [...seen];
  inventoryCache.set(areaCode, list);
  return list;
}

/** Without an area code: the table's area codes interleaved, so results mix places. */
function* mixedCandidates(): Generator<string> {
  const lists = Object.keys(AREA_CODES).map(localInventory);
  for (let i = 0; i < LOCAL_NUMBERS_PER_AREA_CODE; i++) for (const list of lists) yield list[i];
}

function describe(phoneNumber: string): Omit<AvailableNumber, "phoneNumber"> {
  const place = AREA_CODES[areaCodeOf(phoneNumber) ?? ""];
  return {
    friendlyName: friendlyNumber(phoneNumber),
    locality: place?.locality ?? null,
    region: place?.region ?? null,
    isoCountry: "US",
  };
}

async function sidFor(phoneNumber: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`local-telephony-sid:${phoneNumber}`));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `PN${hex.slice(0, 32)}`;
}

export class LocalTelephony implements TelephonyPort {
  readonly kind = "local" as const;

  constructor(private db: Database) {}

  async health() {
    return { ok: true, message: PHONE_API_TEXT.localHealthy };
  }

  async searchAvailable(query: SearchQuery): Promise<AvailableNumber[]> {
    // The local inventory holds US numbers, all able to take calls and texts.
    if (query.country.toUpperCase() !== "US" || query.limit <= 0) return [];
    const candidates = query.areaCode ? localInventory(query.areaCode)[Symbol.iterator]() : mixedCandidates();
    const found: AvailableNumber[] = [];
    while (found.length < query.limit) {
      const chunk: string[] = [];
      for (let r = candidates.next(); !r.done; r = candidates.next()) {
        chunk.push(r.value);
        if (chunk.length === CHECK_CHUNK) break;
      }
      if (chunk.length === 0) break;
      const taken = await this.db
        .select({ phoneNumber: phoneNumbers.phoneNumber })
        .from(phoneNumbers)
        .where(inArray(phoneNumbers.phoneNumber, chunk));
      const takenSet = new Set(taken.map((t) => t.phoneNumber));
      for (const n of chunk) {
        if (takenSet.has(n)) continue;
        found.push({ phoneNumber: n, ...describe(n) });
        if (found.length === query.limit) break;
      }
    }
    return found;
  }

  async purchase(phoneNumber: string): Promise<PurchasedNumber> {
    const area = areaCodeOf(phoneNumber);
    if (!area || !localInventory(area).includes(phoneNumber)) {
      throw new ApiError(409, PHONE_API_TEXT.numberUnavailable, "number_unavailable", "phoneNumber");
    }
    return { sid: await sidFor(phoneNumber), phoneNumber, ...describe(phoneNumber) };
  }

  async release(sid: string): Promise<void> {
    if (!/^PN[0-9a-f]{32}$/.test(sid)) throw new ApiError(404, PHONE_API_TEXT.numberNotFound, "not_found");
  }
}
