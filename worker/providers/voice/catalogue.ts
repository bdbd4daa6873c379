// Voices offered in the agent form. VAPI has no single endpoint that lists every provider's
// voices for an account, so both adapters offer this curated list of voices VAPI supports.
// Our voice ids read '<voice>-<provider>' (the spec's default is 'marissa-11labs').
import { DEFAULT_VOICE_ID } from "@shared/constants";
import type { Voice } from "./port";

type CatalogueVoice = Voice & { vapiProvider: string; vapiVoiceId: string };

export const VOICE_CATALOGUE: readonly CatalogueVoice[] = [
  { id: DEFAULT_VOICE_ID, name: "Marissa", provider: "11labs", gender: "female", accent: "American", vapiProvider: "11labs", vapiVoiceId: "marissa" },
  { id: "sarah-11labs", name: "Sarah", provider: "11labs", gender: "female", accent: "American", vapiProvider: "11labs", vapiVoiceId: "sarah" },
  { id: "paula-11labs", name: "Paula", provider: "11labs", gender: "female", accent: "American", vapiProvider: "11labs", vapiVoiceId: "paula" },
  { id: "burt-11labs", name: "Burt", provider: "11labs", gender: "male", accent: "American", vapiProvider: "11labs", vapiVoiceId: "burt" },
  { id: "steve-11labs", name: "Steve", provider: "11labs", gender: "male", accent: "Australian", vapiProvider: "11labs", vapiVoiceId: "steve" },
  { id: "phillip-11labs", name: "Phillip", provider: "11labs", gender: "male", accent: "British", vapiProvider: "11labs", vapiVoiceId: "phillip" },
  { id: "elliot-vapi", name: "Elliot", provider: "vapi", gender: "male", vapiProvider: "vapi", vapiVoiceId: "Elliot" },
  { id: "kylie-vapi", name: "Kylie", provider: "vapi", gender: "female", vapiProvider: "vapi", vapiVoiceId: "Kylie" },
  { id: "savannah-vapi", name: "Savannah", provider: "vapi", gender: "female", vapiProvider: "vapi", vapiVoiceId: "Savannah" },
  { id: "emma-azure", name: "Emma", provider: "azure", gender: "female", accent: "American", vapiProvider: "azure", vapiVoiceId: "emma" },
  { id: "andrew-azure", name: "Andrew", provider: "azure", gender: "male", accent: "American", vapiProvider: "azure", vapiVoiceId: "andrew" },
];

/** The catalogue as the API shows it (without VAPI's own provider fields). */
export function catalogueVoices(): Voice[] {
  return VOICE_CATALOGUE.map(({ id, name, provider, gender, accent }) => ({ id, name, provider, ...(gender ? { gender } : {}), ...(accent ? { accent } : {}) }));
}

// Provider names VAPI accepts in `voice.provider`, longest first so 'rime-ai' wins over 'ai'.
const VAPI_VOICE_PROVIDERS = ["smallest-ai", "rime-ai", "cartesia", "deepgram", "neuphonic", "inworld", "minimax", "11labs", "openai", "playht", "azure", "hume", "lmnt", "vapi"];

/**
 * Our voice id → VAPI's `{ provider, voiceId }`. Catalogue ids map exactly; any other
 * '<voice>-<provider>' id is split at the provider suffix; a bare id is taken as an ElevenLabs voice.
 */
export function toVapiVoice(voiceId: string): { provider: string; voiceId: string } {
  const known = VOICE_CATALOGUE.find((v) => v.id === voiceId);
  if (known) return { provider: known.vapiProvider, voiceId: known.vapiVoiceId };
  for (const provider of VAPI_VOICE_PROVIDERS) {
    const suffix = `-${provider}`;
    if (voiceId.endsWith(suffix) && voiceId.length > suffix.length) {
      return { provider, voiceId: voiceId.slice(0, -suffix.length) };
    }
  }
  return { provider: "11labs", voiceId };
}
