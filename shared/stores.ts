// The nine stores by code or by name (docs/product/README.md#records, docs/product/constants.md#business-constants). Names are typed by hand (Aircall's
// line names, a store system's export, someone calling the API), so case, spacing and trailing dots
// do not matter: "Naples", "naples." and "NAPLES" are all NAPLES, "Oklahoma City" and "okc" are OKC.
import { STORE_NUMBER_NAMES, STORES, type Store } from "./constants";

/** A name as compared: trimmed, inner spaces single, trailing dots dropped, lower case. */
const nameKey = (name: string) => name.trim().replace(/\.+$/, "").trim().replace(/\s+/g, " ").toLowerCase();

const BY_LINE = new Map<string, Store>(STORES.map((s) => [nameKey(STORE_NUMBER_NAMES[s]), s]));
const BY_CODE_OR_NAME = new Map<string, Store>([...STORES.map((s) => [nameKey(s), s] as const), ...BY_LINE]);

/** The store whose Aircall line this name is (the number names of docs/product/README.md#records), or null for any other line. */
export function storeOfLine(name: string | null | undefined): Store | null {
  return name ? (BY_LINE.get(nameKey(name)) ?? null) : null;
}

/** The store a code ("OKC", "okc") or a store's name ("Oklahoma City", "Naples") stands for, or null. */
export function storeOf(value: string): Store | null {
  return BY_CODE_OR_NAME.get(nameKey(value)) ?? null;
}
