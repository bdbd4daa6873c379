// Telephony port (Twilio): searching, buying and releasing phone numbers.

export type AvailableNumber = {
  phoneNumber: string;
  friendlyName: string;
  locality: string | null;
  region: string | null;
  isoCountry: string;
};

export type SearchQuery = { country: string; areaCode?: string; limit: number; sms?: boolean; voice?: boolean };

export type PurchasedNumber = {
  sid: string;
  phoneNumber: string;
  friendlyName: string;
  locality: string | null;
  region: string | null;
  isoCountry: string;
};

export interface TelephonyPort {
  readonly kind: "local" | "twilio";
  health(): Promise<{ ok: boolean; message: string }>;
  searchAvailable(query: SearchQuery): Promise<AvailableNumber[]>;
  purchase(phoneNumber: string): Promise<PurchasedNumber>;
  release(sid: string): Promise<void>;
}
