// Upward import: lib/ sits below services/ and may not import it.
import { greeting } from "../services/greeting";

export const now = () => `${greeting("clock")} ${Date.now()}`;
