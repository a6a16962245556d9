/**
 * The Payouts page's Stripe card (issue 38, record 281): "Connect with Stripe" opens Stripe's onboarding;
 * whether it is complete comes from Stripe (`account.updated`); once it is, Stripe can be the payout method.
 */
import { CheckCircle2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useStripeForPayouts, useStripeOnboarding, useStripeOnboardingLink } from '../api/stripe-onboarding';

export function StripeConnectCard() {
  const onboarding = useStripeOnboarding();
  const link = useStripeOnboardingLink();
  const use = useStripeForPayouts();
  const data = onboarding.data;
  if (!data?.isOffered) return null;
  const status = data.isComplete
    ? 'Onboarding complete: Stripe can pay you.'
    : data.accountHint
      ? 'Onboarding not finished: Stripe still needs your details.'
      : 'Not connected yet.';
  return (
    <Card className="space-y-3" data-testid="stripe-connect">
      <h2 className="text-lg font-semibold text-white">Stripe</h2>
      <p className="text-sm text-zinc-300" data-testid="stripe-onboarding-status">
        {data.isComplete ? (
          <CheckCircle2 aria-hidden className="mr-1 inline size-4 text-emerald-400" />
        ) : null}
        {status}
        {data.accountHint ? ` (account ${data.accountHint})` : ''}
      </p>
      <div className="flex flex-wrap gap-3">
        {data.isComplete ? null : (
          <Button
            disabled={link.isPending}
            onClick={() =>
              link.mutate(undefined, {
                onError: (error) => notify.error(errorMessage(error, 'Stripe could not be reached')),
              })
            }
          >
            Connect with Stripe
          </Button>
        )}
        {data.isComplete && !data.isMethod ? (
          <Button
            disabled={use.isPending}
            onClick={() =>
              use.mutate(undefined, {
                onSuccess: (result) =>
                  notify.success(
                    result.pendingConfirmation
                      ? `Stripe becomes your payout method once the owner confirms it: we emailed a link to ${result.pendingConfirmation.sentTo}.`
                      : 'Stripe is now your payout method.',
                  ),
                onError: (error) => notify.error(errorMessage(error, 'Stripe could not be chosen')),
              })
            }
          >
            Use Stripe for payouts
          </Button>
        ) : null}
        {data.isMethod ? <p className="text-sm text-emerald-300">Your payouts go to Stripe.</p> : null}
      </div>
    </Card>
  );
}
