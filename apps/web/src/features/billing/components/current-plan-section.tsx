/**
 * Account page, Current Plan (spec 01 §2, §4, §8): the subscription as the server reconciles it with
 * the payment provider, and what can be done from each state. Admin and free_access accounts see the
 * 'Free Access' badge and are never offered a subscription or an upgrade.
 */
import { useQueryClient } from '@tanstack/react-query';
import { PLAN_DETAILS, PLANS, type Plan } from '@tunedrop/shared';
import {
  BILLING_MESSAGES,
  type SubscriptionInfo,
  subscriptionInfoQueryKey,
} from '@tunedrop/shared/schemas/billing';
import { AlertTriangle, CalendarClock, CreditCard, Sparkles } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Badge, Spinner } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { StatusBadge } from '../../../components/ui/status-badge';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { ApiError, errorMessage } from '../../../lib/api';
import { formatLongDate } from '../../../lib/format';
import { usePlanDetails } from '../../../lib/site-brand';
import { useViewer, type Viewer, viewerFacts } from '../../../lib/viewer';
import { createCheckout, openCustomerPortal, useSubscriptionInfo } from '../api/billing';

const RETURN_SUCCESS = `${paths.account}?success=true`;
const RETURN_CANCELED = `${paths.account}?canceled=true`;

/** While check-subscription answers (or if it fails), the viewer's copy of the same fields. */
function infoFromViewer(viewer: Viewer): SubscriptionInfo {
  return {
    subscription_status: viewer.profile.subscriptionStatus,
    subscription_end: viewer.profile.subscriptionEnd,
    plan: viewer.profile.plan === 'pro' ? 'pro' : 'basic',
    pending_plan: null,
    cancel_at_period_end: false,
    has_subscription: false,
  };
}

/** success=true / canceled=true come back from checkout: a toast once, then the flags leave the URL. */
function useReturnFlags() {
  const [params, setParams] = useSearchParams();
  const isHandled = useRef(false);
  useEffect(() => {
    const isSuccess = params.get('success') === 'true';
    const isCanceled = params.get('canceled') === 'true';
    if ((!isSuccess && !isCanceled) || isHandled.current) return;
    isHandled.current = true;
    if (isSuccess) {
      notify.success(BILLING_MESSAGES.paymentSuccessTitle, BILLING_MESSAGES.paymentSuccessDescription);
    } else {
      notify.info('Checkout canceled', 'No payment was taken. Choose a plan whenever you are ready.');
    }
    const next = new URLSearchParams(params);
    next.delete('success');
    next.delete('canceled');
    setParams(next, { replace: true, preventScrollReset: true });
  }, [params, setParams]);
}

export function CurrentPlanSection() {
  const planDetails = usePlanDetails();
  const queryClient = useQueryClient();
  const { data: viewer } = useViewer();
  const subscription = useSubscriptionInfo(Boolean(viewer));
  const [busy, setBusy] = useState<string | null>(null);
  const [isUpgradeConfirmOpen, setIsUpgradeConfirmOpen] = useState(false);
  useReturnFlags();

  if (!viewer) return null;
  const facts = viewerFacts(viewer);
  const info = subscription.data ?? infoFromViewer(viewer);
  const plan = planDetails[info.plan];
  const status = info.subscription_status;
  const end = info.subscription_end;
  const isEnded = status === 'canceled' && end !== null && new Date(end).getTime() <= Date.now();
  const canSubscribe = !facts.hasFreeAccess && (status === 'inactive' || isEnded);
  const canManage = status === 'active' || status === 'past_due' || (status === 'canceled' && !isEnded);

  const subscribe = async (target: Plan) => {
    setBusy(`subscribe_${target}`);
    try {
      const result = await createCheckout({
        plan: target,
        successUrl: RETURN_SUCCESS,
        cancelUrl: RETURN_CANCELED,
      });
      if (result.planChange) {
        const when = result.planChange.effectiveAt
          ? ` on ${formatLongDate(result.planChange.effectiveAt)}`
          : ' at your next billing cycle';
        notify.success('Plan change scheduled', `You move to ${PLAN_DETAILS[target].name}${when}.`);
        await queryClient.invalidateQueries({ queryKey: subscriptionInfoQueryKey });
        setBusy(null);
        return;
      }
      window.location.assign(result.url);
    } catch (caught) {
      notify.error(
        caught instanceof ApiError && caught.status === 401
          ? BILLING_MESSAGES.noActiveSession
          : errorMessage(caught, BILLING_MESSAGES.checkoutFailedAccount),
      );
      setBusy(null);
    }
  };

  const manage = async () => {
    setBusy('manage');
    // Opened now, while the click still counts as a user gesture; pointed at the portal once we have it.
    const tab = window.open('', '_blank');
    try {
      const { url } = await openCustomerPortal();
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else {
        window.location.assign(url);
      }
    } catch (caught) {
      tab?.close();
      notify.error(
        caught instanceof ApiError && caught.status === 401
          ? BILLING_MESSAGES.noActiveSession
          : errorMessage(caught, BILLING_MESSAGES.portalFailed),
      );
    } finally {
      setBusy(null);
    }
  };

  return (
    <section
      aria-labelledby="current-plan-heading"
      className="space-y-5 rounded-xl border border-ink-700 bg-ink-900 p-5"
      data-testid="current-plan"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="current-plan-heading" className="text-lg font-semibold text-white">
          Current Plan
        </h2>
        <div className="flex items-center gap-2">
          {subscription.isFetching ? (
            <Spinner className="size-4 text-zinc-400" label="Checking subscription" />
          ) : null}
          {facts.hasFreeAccess ? <Badge tone="brand">Free Access</Badge> : null}
          <StatusBadge kind="subscription" status={status} data-testid="subscription-status" />
        </div>
      </div>

      <p className="flex items-center gap-2 text-white">
        <CreditCard aria-hidden className="size-5 text-brand-400" />
        <span className="text-xl font-bold" data-testid="current-plan-name">
          {plan.name}
        </span>
        <span className="text-zinc-400">{plan.priceLabel}/month</span>
      </p>

      {facts.hasFreeAccess ? (
        <p className="text-sm text-zinc-300">
          Your account has free access: every Pro feature, with no subscription needed.
        </p>
      ) : null}

      {status === 'active' && end ? (
        <p className="flex items-center gap-2 text-zinc-200">
          <CalendarClock aria-hidden className="size-4 text-zinc-400" /> Renews on {formatLongDate(end)}
        </p>
      ) : null}

      {info.pending_plan && info.pending_plan !== info.plan && !isEnded ? (
        <p className="text-sm text-zinc-300" data-testid="pending-plan">
          Your plan changes to {PLAN_DETAILS[info.pending_plan].name}
          {end ? ` on ${formatLongDate(end)}` : ' at the start of your next billing cycle'}.
        </p>
      ) : null}

      {status === 'canceled' ? (
        <div
          role="alert"
          className="flex gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 p-4 text-amber-100"
        >
          <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-300" />
          <p>
            {end === null
              ? `Your subscription is ${BILLING_MESSAGES.cancelAtPeriodEndUnknown}.`
              : isEnded
                ? `Your subscription ended on ${formatLongDate(end)}.`
                : `Your subscription has been canceled and will end on ${formatLongDate(end)}.`}{' '}
            You will need to resubscribe to upload new releases.
          </p>
        </div>
      ) : null}

      {status === 'past_due' ? (
        <div
          role="alert"
          className="flex gap-3 rounded-lg border border-red-500/40 bg-red-500/10 p-4 text-red-100"
        >
          <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-red-300" />
          <p>{BILLING_MESSAGES.pastDue}</p>
        </div>
      ) : null}

      {canSubscribe ? (
        <div className="space-y-3">
          <p className="text-sm text-zinc-300">
            {status === 'inactive'
              ? 'You do not have an active subscription yet. Choose a plan to start releasing music.'
              : 'Choose a plan to subscribe again.'}
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            {PLANS.map((option) => (
              <div key={option} className="space-y-3 rounded-lg border border-ink-700 bg-ink-800/60 p-4">
                <p className="flex items-center gap-2 font-semibold text-white">
                  {PLAN_DETAILS[option].name}
                  {option === 'pro' ? <Badge tone="brand">Most Popular</Badge> : null}
                </p>
                <p className="text-sm text-zinc-400">{planDetails[option].priceLabel} per month</p>
                <Button
                  className="w-full"
                  variant={option === 'pro' ? 'primary' : 'secondary'}
                  disabled={busy !== null}
                  onClick={() => subscribe(option)}
                >
                  {busy === `subscribe_${option}`
                    ? 'Starting checkout...'
                    : `Subscribe to ${PLAN_DETAILS[option].name}`}
                </Button>
              </div>
            ))}
          </div>
        </div>
      ) : null}

      {canManage ? (
        <div className="flex flex-wrap gap-3">
          {status === 'active' &&
          info.plan === 'basic' &&
          info.pending_plan !== 'pro' &&
          !facts.hasFreeAccess ? (
            <Button disabled={busy !== null} onClick={() => setIsUpgradeConfirmOpen(true)}>
              <Sparkles aria-hidden className="size-4" />
              {busy === 'subscribe_pro' ? 'Upgrading...' : 'Upgrade to Pro'}
            </Button>
          ) : null}
          <Button variant="outline" disabled={busy !== null} onClick={manage}>
            {busy === 'manage' ? 'Opening...' : 'Manage Subscription'}
          </Button>
        </div>
      ) : null}
      {/* Decision 042: an upgrade takes effect at the next billing cycle; say when before doing it. */}
      <ConfirmDialog
        open={isUpgradeConfirmOpen}
        onOpenChange={setIsUpgradeConfirmOpen}
        title="Upgrade to Pro?"
        description={`Your plan changes to Pro ${
          end ? `on ${formatLongDate(end)}, ` : ''
        }at the start of your next billing cycle. Nothing is charged now; from then on you pay ${
          planDetails.pro.priceLabel
        }/month and get Pro features such as analytics.`}
        confirmLabel="Upgrade at next billing cycle"
        onConfirm={() => {
          setIsUpgradeConfirmOpen(false);
          void subscribe('pro');
        }}
      />
    </section>
  );
}
