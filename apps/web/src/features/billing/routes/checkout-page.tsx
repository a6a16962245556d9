/**
 * /checkout?plan={plan}&canceled=true (spec 01 §2, §4, §8): starts payment and sends the browser to the
 * provider's page; shows the 'Payment Canceled' view on return with canceled=true and 'Something Went
 * Wrong' on error. A visitor who is not signed in goes to /signup.
 */
import { PLAN_DETAILS, type Plan } from '@tunedrop/shared';
import { BILLING_MESSAGES, parsePlanParam } from '@tunedrop/shared/schemas/billing';
import { AlertTriangle, CreditCard, XCircle } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { ApiError, errorMessage } from '../../../lib/api';
import { usePlanDetails } from '../../../lib/site-brand';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer } from '../../../lib/viewer';
import { createCheckout } from '../api/billing';

function CheckoutFrame({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <Card className="w-full max-w-md space-y-5 p-8 text-center">{children}</Card>
    </main>
  );
}

export default function CheckoutPage() {
  const planDetails = usePlanDetails();
  usePageTitle('Checkout');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { data: viewer, isPending, isError, error: viewerError } = useViewer();
  const planParam = parsePlanParam(params.get('plan'));
  const isCanceled = params.get('canceled') === 'true';
  const [error, setError] = useState<string | null>(null);
  const hasStarted = useRef(false);

  const plan: Plan = planParam ?? (viewer?.profile.plan === 'pro' ? 'pro' : 'basic');
  const signupPath = `${paths.signup}?plan=${plan}`;

  useEffect(() => {
    if (isPending || isError) return;
    if (!viewer) {
      navigate(planParam ? `${paths.signup}?plan=${planParam}` : paths.signup, { replace: true });
      return;
    }
    if (isCanceled) {
      hasStarted.current = false;
      return;
    }
    // Once per visit (React may run effects twice in development).
    if (hasStarted.current) return;
    hasStarted.current = true;
    setError(null);
    createCheckout({
      plan,
      successUrl: `${paths.dashboard}?success=true`,
      cancelUrl: `${paths.checkout}?plan=${plan}&canceled=true`,
    })
      .then((result) => window.location.assign(result.url))
      .catch((caught: unknown) => {
        setError(
          caught instanceof ApiError && caught.status === 401
            ? BILLING_MESSAGES.noActiveSession
            : errorMessage(caught, BILLING_MESSAGES.checkoutFailed),
        );
      });
  }, [isPending, isError, viewer, isCanceled, plan, planParam, navigate]);

  const failure = error ?? (isError ? errorMessage(viewerError, BILLING_MESSAGES.checkoutFailed) : null);

  if (isCanceled && viewer) {
    return (
      <CheckoutFrame>
        <XCircle aria-hidden className="mx-auto size-12 text-amber-400" />
        <h1 className="text-2xl font-bold text-white">Payment Canceled</h1>
        <p className="text-zinc-300">
          Your payment was canceled and nothing was charged. You can try again whenever you are ready.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Button onClick={() => navigate(`${paths.checkout}?plan=${plan}`, { replace: true })}>
            Try Again
          </Button>
          <Link to={signupPath} className={buttonClass('outline')}>
            Back to Signup
          </Link>
        </div>
      </CheckoutFrame>
    );
  }

  if (failure) {
    return (
      <CheckoutFrame>
        <AlertTriangle aria-hidden className="mx-auto size-12 text-red-400" />
        <h1 className="text-2xl font-bold text-white">Something Went Wrong</h1>
        <p role="alert" className="text-red-200">
          {failure}
        </p>
        <div className="flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Button onClick={() => window.location.reload()}>Try Again</Button>
          <Link to={signupPath} className={buttonClass('outline')}>
            Back to Signup
          </Link>
        </div>
      </CheckoutFrame>
    );
  }

  return (
    <CheckoutFrame>
      <CreditCard aria-hidden className="mx-auto size-12 text-brand-400" />
      <h1 className="text-2xl font-bold text-white">{BILLING_MESSAGES.redirecting}</h1>
      <p className="text-zinc-300">
        {PLAN_DETAILS[plan].name} plan · {planDetails[plan].priceLabel}/month
      </p>
      <Spinner className="size-8 text-brand-400" label={BILLING_MESSAGES.redirecting} />
    </CheckoutFrame>
  );
}
