// What the Worker writes into the SPA's shell besides the app (decision 032): the client
// configuration GET /api/config answers, as a JSON script element the SPA reads instead of asking.
export const APP_CONFIG_ELEMENT_ID = "app-config";
