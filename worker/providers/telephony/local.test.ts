// The local number inventory: the same numbers for an area code every time, minus bought ones.
import { describe, expect, it } from "vitest";
import { phoneNumbers } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import { db } from "../../test/helpers";
import { AREA_CODES } from "./area-codes";
import { LocalTelephony, localInventory, LOCAL_NUMBERS_PER_AREA_CODE } from "./local";

describe("LocalTelephony", () => {
  it("offers the same numbers for an area code every time, with its city", async () => {
    const first = await new LocalTelephony(db()).searchAvailable({ country: "US", areaCode: "305", limit: 10 });
    const second = await new LocalTelephony(db()).searchAvailable({ country: "US", areaCode: "305", limit: 10 });
    expect(first).toHaveLength(10);
    expect(second).toEqual(first);
    expect(new Set(first.map((n) => n.phoneNumber)).size).toBe(10);
    for (const n of first) {
      expect(n.phoneNumber).toMatch(/^\+1305[2-9]\d{6}$/);
      expect(n).toMatchObject({ locality: "Miami", region: "FL", isoCountry: "US" });
      expect(n.friendlyName).toBe(`(305) ${n.phoneNumber.slice(5, 8)}-${n.phoneNumber.slice(8)}`);
    }
  });

  it("knows the nine stores' area codes", () => {
    expect(AREA_CODES["319"]).toEqual({ locality: "Iowa City", region: "IA" });
    expect(AREA_CODES["727"]).toEqual({ locality: "Largo", region: "FL" });
    expect(AREA_CODES["239"]).toEqual({ locality: "Naples", region: "FL" });
    expect(AREA_CODES["954"]).toEqual({ locality: "Pembroke Pines", region: "FL" });
    expect(AREA_CODES["918"]).toEqual({ locality: "Tulsa", region: "OK" });
    expect(AREA_CODES["903"]).toEqual({ locality: "Tyler", region: "TX" });
    expect(AREA_CODES["281"]).toEqual({ locality: "The Woodlands", region: "TX" });
    expect(AREA_CODES["832"]).toEqual({ locality: "The Woodlands", region: "TX" });
    expect(AREA_CODES["405"]).toEqual({ locality: "Oklahoma City", region: "OK" });
  });

  it("gives area codes outside the table numbers without a place, and none for invalid ones", async () => {
    const t = new LocalTelephony(db());
    const [n] = await t.searchAvailable({ country: "US", areaCode: "567", limit: 1 });
    expect(n).toMatchObject({ locality: null, region: null, isoCountry: "US" });
    expect(n.phoneNumber).toMatch(/^\+1567\d{7}$/);
    expect(await t.searchAvailable({ country: "US", areaCode: "099", limit: 5 })).toEqual([]);
    expect(await t.searchAvailable({ country: "GB", limit: 5 })).toEqual([]);
  });

  it("mixes area codes when none is given", async () => {
    const numbers = await new LocalTelephony(db()).searchAvailable({ country: "US", limit: 50 });
    expect(numbers).toHaveLength(50);
    const areas = new Set(numbers.map((n) => n.phoneNumber.slice(2, 5)));
    expect(areas.size).toBeGreaterThan(10);
  });

  it("leaves out numbers already in phone_numbers", async () => {
    const t = new LocalTelephony(db());
    const before = (await t.searchAvailable({ country: "US", areaCode: "903", limit: 7 })).map((n) => n.phoneNumber);
    await db().insert(phoneNumbers).values([{ phoneNumber: before[0] }, { phoneNumber: before[2] }]);
    const after = (await t.searchAvailable({ country: "US", areaCode: "903", limit: 5 })).map((n) => n.phoneNumber);
    expect(after).toEqual([before[1], before[3], before[4], before[5], before[6]]);
  });

  it("buys an inventory number with a sid derived from the number", async () => {
    const t = new LocalTelephony(db());
    const number = localInventory("319")[7];
    const bought = await t.purchase(number);
    expect(bought).toMatchObject({ phoneNumber: number, locality: "Iowa City", region: "IA", isoCountry: "US" });
    expect(bought.sid).toMatch(/^PN[0-9a-f]{32}$/);
    expect((await t.purchase(number)).sid).toBe(bought.sid);
    expect((await t.purchase(localInventory("319")[8])).sid).not.toBe(bought.sid);
  });

  it("refuses numbers outside the inventory", async () => {
    const err = await new LocalTelephony(db()).purchase("+13050000000").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(409);
    expect((err as ApiError).field).toBe("phoneNumber");
    expect(localInventory("305")).toHaveLength(LOCAL_NUMBERS_PER_AREA_CODE);
  });
});
