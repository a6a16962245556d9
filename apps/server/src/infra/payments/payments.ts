/** Picks the payment provider for a running system: Stripe when STRIPE_SECRET_KEY is set, else the sandbox. */
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { PaymentProvider } from './provider';
import { createSandboxProvider } from './sandbox-provider';
import { createStripeProvider } from './stripe-provider';

const providers = new WeakMap<Config, PaymentProvider>();

/**
 * null when payments are unavailable: no Stripe key and the sandbox refused (NODE_ENV=production
 * without PAYMENTS_SANDBOX=1).
 */
export function paymentProviderFor(deps: { config: Config; db: Db }): PaymentProvider | null {
  const known = providers.get(deps.config);
  if (known) return known;
  let provider: PaymentProvider | null = null;
  if (deps.config.STRIPE_SECRET_KEY) provider = createStripeProvider(deps.config);
  else if (deps.config.isPaymentsSandboxAllowed)
    provider = createSandboxProvider(deps.db, deps.config.appUrl);
  if (provider) providers.set(deps.config, provider);
  return provider;
}
