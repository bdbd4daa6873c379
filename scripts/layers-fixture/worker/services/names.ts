// The other half of the cycle with greeting.ts.
import { greeting } from "./greeting";

export const names = () => ["a", "b"];
export const greetAll = () => names().map(greeting);
