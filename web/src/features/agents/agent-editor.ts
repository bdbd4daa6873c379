// Which agent the screen shows and whether it is being edited (docs/product/agents.md#the-agents-page "Agent editing"):
// viewing → editing (Edit, or a new agent) → saved or cancelled. Creating selects the new agent,
// deleting clears the selection, and with nothing selected the first agent is shown.
import { DEFAULT_VOICE_ID, NEW_AGENT_ID } from "@shared/constants";
import { AGENT_TEXT } from "@shared/messages";
import type { Agent } from "@shared/schemas/agents";

export type EditorState = {
  /** The chosen saved agent; null means "the first one". */
  selectedId: number | null;
  /** The unsaved new agent (id NEW_AGENT_ID), while it exists. */
  draft: Agent | null;
  editing: boolean;
};

export type EditorAction =
  | { type: "select"; id: number }
  | { type: "add"; name: string }
  | { type: "edit" }
  | { type: "cancel" }
  | { type: "saved"; id: number }
  | { type: "deleted" };

export const initialEditorState: EditorState = { selectedId: null, draft: null, editing: false };

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case "select":
      // Choosing another agent leaves any unsaved new agent and any edit behind.
      if (action.id === NEW_AGENT_ID) return state.draft ? { ...state, editing: true } : state;
      return { selectedId: action.id, draft: null, editing: false };
    case "add":
      // One unsaved agent at a time: a second 'Add New Agent' returns to it.
      return { ...state, draft: state.draft ?? newAgentDraft(action.name), editing: true };
    case "edit":
      return { ...state, editing: true };
    case "cancel":
      return { ...state, draft: null, editing: false };
    case "saved":
      return { selectedId: action.id, draft: null, editing: false };
    case "deleted":
      return { selectedId: null, draft: null, editing: false };
  }
}

/** The agent in view: the draft, else the chosen one, else the first (docs/product/README.md#states-and-flows: auto-selected). */
export function currentAgent(state: EditorState, agents: readonly Agent[]): Agent | null {
  if (state.draft) return state.draft;
  return agents.find((a) => a.id === state.selectedId) ?? agents[0] ?? null;
}

/** An unsaved agent: empty fields, the default voice. */
export function newAgentDraft(name: string): Agent {
  const now = new Date().toISOString();
  return {
    id: NEW_AGENT_ID,
    name,
    business_description: "",
    services: "",
    agent_instructions: "",
    pricing_information: "",
    documents: "",
    prompt: null,
    voice_id: DEFAULT_VOICE_ID,
    vapi_assistant_id: null,
    store: null,
    type: null,
    twilio_number_id: null,
    assigned_phone_number: null,
    phone_number: null,
    updated_at: now,
    created_at: now,
  };
}

/**
 * docs/product/errors-and-texts.md#validation-messages, checked before anything is posted: a name is required and must differ, ignoring case,
 * from the account's other agents. Returns the toast to show, or null when the name can be saved.
 */
export function nameProblem(
  name: string,
  agents: readonly Pick<Agent, "id" | "name">[],
  selfId: number,
): { title: string; description: string } | null {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return { title: AGENT_TEXT.nameRequiredTitle, description: AGENT_TEXT.nameRequired };
  if (agents.some((a) => a.id !== selfId && a.name.trim().toLowerCase() === wanted)) {
    return { title: AGENT_TEXT.duplicateTitle, description: AGENT_TEXT.duplicate };
  }
  return null;
}
