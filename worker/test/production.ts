// The least a production deployment runs with (worker/env.ts PRODUCTION_REQUIRED): Supabase and
// Stripe settings. The values are placeholders: tests using them make no call to either provider.
export const PRODUCTION_BINDINGS = {
  APP_ENV: "production",
  SUPABASE_URL: "https://production-test.supabase.example",
  SUPABASE_ANON_KEY: "production-test-anon-key",
  SUPABASE_SERVICE_ROLE_KEY: "production-test-service-role-key",
  STRIPE_SECRET_KEY: "sk_test_production_placeholder",
  STRIPE_WEBHOOK_SECRET: "whsec_production_placeholder",
} as const;
