// `npm run` entry for wrangler with telemetry off and state inside the project.
import { bin, run } from "./lib.mjs";
run(bin("wrangler"), process.argv.slice(2)).catch((e) => {
  console.error(e.message);
  process.exit(1);
});
