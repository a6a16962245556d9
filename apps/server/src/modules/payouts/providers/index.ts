/** The providers by id (issue 38). Stripe Connect and Wise are not built yet. */
import type { PayoutProviderId } from '@tunedrop/shared/schemas/payouts';
import { bankCsvProvider } from './bank-csv';
import { paypalProvider } from './paypal';
import type { PayoutProvider } from './types';

const PROVIDERS: Record<PayoutProviderId, PayoutProvider> = {
  'bank-csv': bankCsvProvider,
  paypal: paypalProvider,
};

export function providerFor(id: PayoutProviderId): PayoutProvider {
  return PROVIDERS[id];
}
