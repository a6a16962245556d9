/** Shows a wallet API failure: the spec's title and text for a known rule, else the §8 fallback text. */
import { WALLET_ERROR_TITLES } from '@tunedrop/shared/schemas/wallet';
import { notify } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';

export function showWalletError(error: unknown, fallback: string) {
  const title = error instanceof ApiError ? WALLET_ERROR_TITLES[error.code] : undefined;
  // A team member whose role does not allow it (record 325): the server's sentence says which role.
  if (error instanceof ApiError && error.code === 'account_role') notify.error(error.message, 'Not allowed');
  else if (error instanceof ApiError && title) notify.error(error.message, title);
  else notify.error(fallback);
}
