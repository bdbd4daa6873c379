// The page's early module entry (decision 065): the HTML loads it beside the app's entry, with its own
// <script type="module" async>, so it runs as soon as its few kilobytes have arrived and sends the
// page's first requests while the app's entry is still downloading. The app's entry imports it, and
// gets this same, already evaluated module, with the requests in flight.
import "@web/boot/zod-jitless";
import { sendEarlyRequests } from "./early-requests";

export const early = sendEarlyRequests();
