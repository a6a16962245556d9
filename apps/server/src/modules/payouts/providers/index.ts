/** The providers by id (issue 38). */
import type { PayoutProviderId } from '@tunedrop/shared/schemas/payouts';
import { bankCsvProvider } from './bank-csv';
import { paypalProvider } from './paypal';
import { stripeProvider } from './stripe';
import type { PayoutProvider } from './types';
import { wiseProvider } from './wise';

const PROVIDERS: Record<PayoutProviderId, PayoutProvider> = {
  'bank-csv': bankCsvProvider,
  paypal: paypalProvider,
  stripe: stripeProvider,
  wise: wiseProvider,
};

export function providerFor(id: PayoutProviderId): PayoutProvider {
  return PROVIDERS[id];
}
