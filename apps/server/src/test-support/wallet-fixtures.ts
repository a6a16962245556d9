/** Wallet fixtures: money enters through the balance path (so the audit stays clean), payment details through the service. */
import type { Deps } from '../deps';
import { applyBalanceChange, savePaymentSettings } from '../modules/wallet';

/**
 * Sets a user's available balance the way the CLI does: a logged change, a rise counted as earnings. `at`
 * dates it in the past (its log row and its journal transaction alike: the journal cannot be re-dated).
 */
export function fundUser(deps: Pick<Deps, 'db'>, userId: string, balanceCents: number, at?: Date) {
  return applyBalanceChange(
    deps.db,
    {
      userId,
      newBalanceCents: balanceCents,
      addsPositiveDifferenceToEarnings: true,
      updateType: 'cli',
      notes: 'test funding',
    },
    at ? { at } : {},
  );
}

export function savePaypal(
  deps: Pick<Deps, 'db' | 'config'>,
  userId: string,
  email = 'artist.pay@example.com',
) {
  return savePaymentSettings(deps.db, deps.config.appSecret, userId, {
    payment_method: 'paypal',
    payment_details: { paypal_email: email },
  });
}

export function saveBank(deps: Pick<Deps, 'db' | 'config'>, userId: string, accountNumber = '000123456789') {
  return savePaymentSettings(deps.db, deps.config.appSecret, userId, {
    payment_method: 'bank',
    payment_details: {
      account_name: 'Test Artist',
      account_number: accountNumber,
      routing_number: '021000021',
      bank_name: 'First Test Bank',
    },
  });
}
