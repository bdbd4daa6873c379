// A small table of US area codes: where the local inventory's numbers are, and the
// location shown for a bought number when the provider's purchase answer carries none.

export type AreaCodePlace = { locality: string; region: string };

/** The nine stores' cities first (docs/product/constants.md#business-constants), then a few large markets. */
export const AREA_CODES: Record<string, AreaCodePlace> = {
  "319": { locality: "Iowa City", region: "IA" },
  "727": { locality: "Largo", region: "FL" },
  "305": { locality: "Miami", region: "FL" },
  "239": { locality: "Naples", region: "FL" },
  "954": { locality: "Pembroke Pines", region: "FL" },
  "918": { locality: "Tulsa", region: "OK" },
  "903": { locality: "Tyler", region: "TX" },
  "281": { locality: "The Woodlands", region: "TX" },
  "832": { locality: "The Woodlands", region: "TX" },
  "405": { locality: "Oklahoma City", region: "OK" },
  "212": { locality: "New York", region: "NY" },
  "312": { locality: "Chicago", region: "IL" },
  "213": { locality: "Los Angeles", region: "CA" },
  "415": { locality: "San Francisco", region: "CA" },
  "206": { locality: "Seattle", region: "WA" },
  "617": { locality: "Boston", region: "MA" },
  "404": { locality: "Atlanta", region: "GA" },
  "303": { locality: "Denver", region: "CO" },
  "512": { locality: "Austin", region: "TX" },
  "214": { locality: "Dallas", region: "TX" },
  "602": { locality: "Phoenix", region: "AZ" },
  "702": { locality: "Las Vegas", region: "NV" },
  "813": { locality: "Tampa", region: "FL" },
  "407": { locality: "Orlando", region: "FL" },
};

/** The area code of a North American (+1) number, else null. */
export function areaCodeOf(e164: string): string | null {
  const m = /^\+1(\d{3})\d{7}$/.exec(e164);
  return m ? m[1] : null;
}

export function placeOf(e164: string): AreaCodePlace | null {
  const area = areaCodeOf(e164);
  return area ? (AREA_CODES[area] ?? null) : null;
}

/** Twilio's friendly form of a +1 number: "(305) 555-0123"; other numbers as given. */
export function friendlyNumber(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}
