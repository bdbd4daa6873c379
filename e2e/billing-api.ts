// Journey set-up through the app's own HTTP API: pays for the basic plan on the local checkout page
// with the test card, since activation, numbers and test calls need a subscription (ADR 022).
export async function subscribeWithTestCard(baseUrl: string, email: string) {
  const checkout = await fetch(`${baseUrl}/api/stripe/create-checkout-session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      priceId: "price_local_basic_month",
      quantity: 1,
      successUrl: `${baseUrl}/payments/success`,
      cancelUrl: `${baseUrl}/payments/cancel`,
      customerEmail: email,
    }),
  });
  if (!checkout.ok) throw new Error(`the checkout should start, got ${checkout.status}: ${await checkout.text()}`);
  const { url } = (await checkout.json()) as { url: string };
  const paid = await fetch(`${url}/pay`, { method: "POST", body: new URLSearchParams({ card: "4242424242424242" }), redirect: "manual" });
  if (paid.status !== 303) throw new Error(`the test card should pay, got ${paid.status}`);
}
