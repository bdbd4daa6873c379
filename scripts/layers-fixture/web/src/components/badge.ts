// A component module the fixture's lib/ reaches into.
export const badge = (text: string) => `[${text}]`;
