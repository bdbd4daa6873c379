// A field of a first screen painted from the HTML (decision 033) is live before the app runs: a
// visitor may type in it or focus it. The render that replaces it reads what it holds, while the
// HTML's element is still in the page (React swaps the DOM only when it commits that render).

export type FirstScreenField = { value: string; focused: boolean };

/** The text and focus of the first-screen input marked `data-first-screen-field={name}` (a plain word), if one is in the page. */
export function readFirstScreenField(name: string): FirstScreenField {
  if (typeof document === "undefined") return { value: "", focused: false };
  const field = document.querySelector(`#root input[data-first-screen-field="${name}"]`);
  if (!(field instanceof HTMLInputElement)) return { value: "", focused: false };
  return { value: field.value, focused: document.activeElement === field };
}
