// Half of a cycle with names.ts.
import { names } from "./names";

export const greeting = (who: string) => `hello ${who} and ${names().join(", ")}`;
