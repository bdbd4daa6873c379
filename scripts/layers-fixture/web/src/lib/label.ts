// Upward import: web/src/lib/ sits below the components and may not import one.
import { badge } from "../components/badge";

export const label = (text: string) => badge(text.trim());
