/**
 * Return from payment on the dashboard home (spec 01 §2): with ?success=true it shows 'Activating
 * subscription...', waits 2 s, asks the server to check the subscription (its answer is not used
 * here), shows 'Payment successful!', then reloads /dashboard after 1 s. Renders nothing otherwise.
 */
import { BILLING_MESSAGES } from '@tunedrop/shared/schemas/billing-texts';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '../components/ui/card';
import { notify } from '../components/ui/toast';
import { paths } from '../config/paths';
import { client, unwrap } from './api';

const WAIT_BEFORE_CHECK_MS = 2000;
const WAIT_BEFORE_RELOAD_MS = 1000;

export function isReturningFromPayment(pathname: string, search: string): boolean {
  return pathname === paths.dashboard && new URLSearchParams(search).get('success') === 'true';
}

export function SubscriptionActivation() {
  const [params] = useSearchParams();
  const isActivating = params.get('success') === 'true';

  useEffect(() => {
    if (!isActivating) return;
    let isCancelled = false;
    let reload: ReturnType<typeof setTimeout> | undefined;
    const check = setTimeout(async () => {
      await unwrap(client.billing['check-subscription'].$post()).catch(() => undefined);
      if (isCancelled) return;
      notify.success(BILLING_MESSAGES.paymentSuccessTitle, BILLING_MESSAGES.paymentSuccessDescription);
      reload = setTimeout(() => window.location.assign(paths.dashboard), WAIT_BEFORE_RELOAD_MS);
    }, WAIT_BEFORE_CHECK_MS);
    return () => {
      isCancelled = true;
      clearTimeout(check);
      clearTimeout(reload);
    };
  }, [isActivating]);

  if (!isActivating) return null;
  return (
    <div className="fixed inset-0 z-40 flex flex-col items-center justify-center gap-4 bg-ink-950/95 text-center">
      <Spinner className="size-10 text-brand-400" label={BILLING_MESSAGES.activating} />
      <p className="text-lg font-semibold text-white">{BILLING_MESSAGES.activating}</p>
    </div>
  );
}
