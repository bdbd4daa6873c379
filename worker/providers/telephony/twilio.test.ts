// The Twilio adapter against the Twilio stand-in over real HTTP (paths, Basic auth, form bodies,
// snake_case answers, Twilio's error JSON).
import { PHONE_API_TEXT } from "@shared/messages";
import { describe, expect, inject, it } from "vitest";
import { ApiError } from "../../lib/errors";
import { TWILIO_STANDIN } from "../../test/standins/twilio";
import { TwilioTelephony } from "./twilio";

const baseUrl = () => inject("standins").twilio;
const newAccountSid = () => `AC${crypto.randomUUID().replace(/-/g, "")}`;
const adapter = (accountSid: string, authToken: string = TWILIO_STANDIN.authToken, base = baseUrl()) =>
  new TwilioTelephony({ accountSid, authToken, baseUrl: base });

/** Reads the account's numbers straight from the stand-in, as Twilio lists them. */
async function incomingNumbers(accountSid: string) {
  const res = await fetch(`${baseUrl()}/2010-04-01/Accounts/${accountSid}/IncomingPhoneNumbers.json`, {
    headers: { authorization: `Basic ${btoa(`${accountSid}:${TWILIO_STANDIN.authToken}`)}` },
  });
  const body = (await res.json()) as { incoming_phone_numbers: { sid: string; phone_number: string }[] };
  return body.incoming_phone_numbers;
}

async function providerFailure(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe("TwilioTelephony", () => {
  it("reports a reachable, active account as healthy", async () => {
    const h = await adapter(newAccountSid()).health();
    expect(h).toEqual({ ok: true, message: PHONE_API_TEXT.twilioHealthy });
  });

  it("reports wrong credentials as unhealthy, without Twilio's text (it can quote the account path)", async () => {
    const h = await adapter(newAccountSid(), "wrong-token").health();
    expect(h).toEqual({ ok: false, message: PHONE_API_TEXT.twilioUnreachable });
  });

  it("searches Local numbers by area code and maps Twilio's snake_case fields", async () => {
    const numbers = await adapter(newAccountSid()).searchAvailable({ country: "US", areaCode: "305", limit: 5, sms: true, voice: true });
    expect(numbers).toHaveLength(5);
    expect(numbers[0]).toEqual({
      phoneNumber: "+13055550100",
      friendlyName: "(305) 555-0100",
      locality: "Miami",
      region: "FL",
      isoCountry: "US",
    });
    for (const n of numbers) expect(n.phoneNumber).toMatch(/^\+1305\d{7}$/);
  });

  it("searches without an area code and maps empty locations to null", async () => {
    const numbers = await adapter(newAccountSid()).searchAvailable({ country: "US", limit: 6 });
    expect(new Set(numbers.map((n) => n.phoneNumber.slice(2, 5)))).toEqual(new Set(["305", "212", "918"]));
    const unknownPlace = await adapter(newAccountSid()).searchAvailable({ country: "US", areaCode: "702", limit: 1 });
    expect(unknownPlace[0]).toMatchObject({ phoneNumber: "+17025550100", locality: null, region: null });
  });

  it("turns Twilio's error JSON into a provider error", async () => {
    const bad = await providerFailure(adapter(newAccountSid()).searchAvailable({ country: "US", areaCode: "30", limit: 5 }));
    expect(bad.status).toBe(502);
    expect(bad.message).toBe("Twilio: Invalid AreaCode");
    const country = await providerFailure(adapter(newAccountSid()).searchAvailable({ country: "GB", limit: 5 }));
    expect(country.message).toMatch(/^Twilio: The requested resource .*GB\/Local\.json was not found$/);
  });

  it("buys a number with a form-encoded POST and releases it with DELETE", async () => {
    const sid = newAccountSid();
    const twilio = adapter(sid);
    const bought = await twilio.purchase("+19185550107");
    expect(bought).toMatchObject({ phoneNumber: "+19185550107", friendlyName: "(918) 555-0107", isoCountry: "US" });
    expect(bought.sid).toMatch(/^PN[0-9a-f]{32}$/);
    // IncomingPhoneNumber carries no location.
    expect(bought.locality).toBeNull();
    expect(await incomingNumbers(sid)).toEqual([expect.objectContaining({ sid: bought.sid, phone_number: "+19185550107" })]);
    const after = await twilio.searchAvailable({ country: "US", areaCode: "918", limit: 50 });
    expect(after.map((n) => n.phoneNumber)).not.toContain("+19185550107");

    await twilio.release(bought.sid);
    expect(await incomingNumbers(sid)).toEqual([]);
    const again = await providerFailure(twilio.release(bought.sid));
    expect(again.message).toMatch(/^Twilio: The requested resource .* was not found$/);
  });

  it("refuses a number Twilio does not offer", async () => {
    const sid = newAccountSid();
    const e = await providerFailure(adapter(sid).purchase("+13050000000"));
    expect(e.status).toBe(502);
    expect(e.message).toBe("Twilio: PhoneNumber requested is not available");
    expect(await incomingNumbers(sid)).toEqual([]);
  });

  it("sends every call with Basic auth: a wrong token buys nothing", async () => {
    const sid = newAccountSid();
    const e = await providerFailure(adapter(sid, "wrong-token").purchase("+13055550100"));
    expect(e.message).toBe("Twilio: Authenticate");
    expect(await incomingNumbers(sid)).toEqual([]);
  });
});
