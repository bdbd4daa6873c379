// Starts every vendor stand-in once for the worker test run; tests read their URLs with inject("standins").
import type { TestProject } from "vitest/node";
import { aircallStandin } from "./standins/aircall";
import { dnsStandin } from "./standins/dns";
import { startStandin, type StandinHandler } from "./standins/server";
import { stripeStandin } from "./standins/stripe";
import { resendStandin } from "./standins/resend";
import { supabaseStandin } from "./standins/supabase";
import { twilioStandin } from "./standins/twilio";
import { vapiStandin } from "./standins/vapi";

/** Each stand-in module registers its handler here, keyed by port name (vapi, twilio, stripe, supabase, ...). */
const standins: Record<string, () => Promise<StandinHandler>> = {
  supabase: supabaseStandin,
  twilio: twilioStandin,
  vapi: vapiStandin,
  aircall: aircallStandin,
  stripe: stripeStandin,
  resend: resendStandin,
  dns: dnsStandin,
};

declare module "vitest" {
  export interface ProvidedContext {
    standins: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const running = await Promise.all(
    Object.entries(standins).map(async ([name, make]) => [name, await startStandin(await make())] as const),
  );
  project.provide("standins", Object.fromEntries(running.map(([name, s]) => [name, s.url])));
  return async () => {
    await Promise.all(running.map(([, s]) => s.close()));
  };
}
