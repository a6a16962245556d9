/**
 * /sandbox/portal: the payment sandbox's stand-in for a provider's customer portal (opened in a new
 * tab from Manage Subscription): cancel at period end, resume, and switch plan from the next cycle.
 */
import { useQueryClient } from '@tanstack/react-query';
import { PLAN_DETAILS, PLANS, type Plan } from '@tunedrop/shared';
import { type SandboxPortalAction, subscriptionInfoQueryKey } from '@tunedrop/shared/schemas/billing';
import { FlaskConical } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Badge, Card, PageLoader } from '../../../components/ui/card';
import { statusLabel } from '../../../components/ui/status-badge';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { ApiError, errorMessage } from '../../../lib/api';
import { formatLongDate } from '../../../lib/format';
import { currentSiteBrand } from '../../../lib/site-brand';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer } from '../../../lib/viewer';
import { sandboxPortalAction, sandboxPortalQueryKey, useSandboxPortal } from '../api/billing';

export default function SandboxPortalPage() {
  usePageTitle('Manage subscription');
  const queryClient = useQueryClient();
  const viewer = useViewer();
  const portal = useSandboxPortal(Boolean(viewer.data));
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (action: SandboxPortalAction, done: string) => {
    setBusy(action.action === 'switch_plan' ? `switch_${action.plan}` : action.action);
    try {
      const info = await sandboxPortalAction(action);
      queryClient.setQueryData(sandboxPortalQueryKey, info);
      queryClient.setQueryData(subscriptionInfoQueryKey, info);
      notify.success(done);
    } catch (caught) {
      notify.error(errorMessage(caught, 'The sandbox could not change your subscription.'));
    } finally {
      setBusy(null);
    }
  };

  if (viewer.isPending || (viewer.data && portal.isPending)) return <PageLoader />;

  const info = portal.data;
  const isRunning =
    info?.has_subscription === true &&
    (info.subscription_status === 'active' ||
      info.subscription_status === 'past_due' ||
      (info.subscription_status === 'canceled' &&
        info.cancel_at_period_end &&
        info.subscription_end !== null &&
        new Date(info.subscription_end).getTime() > Date.now()));
  const isCanceling = info?.subscription_status === 'canceled' && info.cancel_at_period_end;

  return (
    <main className="mx-auto max-w-2xl px-4 py-12">
      <Card className="space-y-6 p-8">
        <div className="flex items-center gap-2 text-sm font-medium text-amber-300">
          <FlaskConical aria-hidden className="size-4" /> Payment sandbox: no card is charged
        </div>
        <h1 className="text-2xl font-bold text-white">Manage your subscription</h1>
        {!viewer.data ? (
          <p role="alert" className="text-red-200">
            Please{' '}
            <Link to={paths.login} className="underline">
              sign in
            </Link>{' '}
            to manage your subscription.
          </p>
        ) : portal.isError || !info ? (
          <p role="alert" className="text-red-200">
            {portal.error instanceof ApiError
              ? portal.error.message
              : 'Your subscription could not be loaded.'}
          </p>
        ) : !isRunning ? (
          <p className="text-zinc-300">
            You have no running subscription.{' '}
            <Link to={paths.account} className="text-brand-300 underline hover:text-brand-200">
              Choose a plan on your account page
            </Link>
            .
          </p>
        ) : (
          <>
            <dl className="space-y-2 rounded-lg border border-ink-700 bg-ink-800/60 p-4">
              <div className="flex justify-between gap-4">
                <dt className="text-zinc-400">Plan</dt>
                <dd className="font-semibold text-white" data-testid="portal-plan">
                  {PLAN_DETAILS[info.plan].name} · {PLAN_DETAILS[info.plan].priceLabel}/month
                </dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-zinc-400">Status</dt>
                <dd>
                  <Badge
                    tone={isCanceling ? 'yellow' : info.subscription_status === 'active' ? 'green' : 'red'}
                  >
                    {isCanceling
                      ? 'Cancels at period end'
                      : statusLabel('subscription', info.subscription_status)}
                  </Badge>
                </dd>
              </div>
              {info.subscription_end ? (
                <div className="flex justify-between gap-4">
                  <dt className="text-zinc-400">{isCanceling ? 'Ends on' : 'Renews on'}</dt>
                  <dd className="text-white">{formatLongDate(info.subscription_end)}</dd>
                </div>
              ) : null}
              {info.pending_plan ? (
                <div className="flex justify-between gap-4">
                  <dt className="text-zinc-400">Next billing cycle</dt>
                  <dd className="text-white" data-testid="portal-pending-plan">
                    {PLAN_DETAILS[info.pending_plan].name}
                  </dd>
                </div>
              ) : null}
            </dl>

            <section aria-labelledby="portal-plan-heading" className="space-y-3">
              <h2 id="portal-plan-heading" className="font-semibold text-white">
                Switch plan
              </h2>
              <p className="text-sm text-zinc-400">
                A new plan takes effect at the start of your next billing cycle.
              </p>
              <div className="flex flex-wrap gap-3">
                {PLANS.filter((plan) => plan !== (info.pending_plan ?? info.plan)).map((plan: Plan) => (
                  <Button
                    key={plan}
                    variant="secondary"
                    disabled={busy !== null || isCanceling}
                    onClick={() =>
                      run(
                        { action: 'switch_plan', plan },
                        plan === info.plan
                          ? 'Plan change withdrawn'
                          : `Your plan changes to ${PLAN_DETAILS[plan].name} at the next billing cycle`,
                      )
                    }
                  >
                    Switch to {PLAN_DETAILS[plan].name}
                  </Button>
                ))}
              </div>
            </section>

            <div className="flex flex-wrap gap-3 border-t border-ink-700 pt-5">
              {isCanceling ? (
                <Button
                  disabled={busy !== null}
                  onClick={() => run({ action: 'resume' }, 'Subscription resumed')}
                >
                  Resume subscription
                </Button>
              ) : (
                <Button
                  variant="danger"
                  disabled={busy !== null}
                  onClick={() => run({ action: 'cancel' }, 'Your subscription will end at the period end')}
                >
                  Cancel at period end
                </Button>
              )}
            </div>
          </>
        )}
        <Link
          to={paths.account}
          className="inline-block text-sm text-brand-300 underline hover:text-brand-200"
        >
          Return to {currentSiteBrand().productName}
        </Link>
      </Card>
    </main>
  );
}
