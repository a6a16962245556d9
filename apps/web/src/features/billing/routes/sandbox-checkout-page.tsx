/**
 * /sandbox/checkout/<id>: the payment sandbox's stand-in for a provider's hosted checkout. It names the
 * plan and price; Pay completes the payment on the server (the same code a real webhook runs) and goes
 * to the success URL, Cancel goes to the cancel URL.
 */
import { FlaskConical, Lock } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { ApiError, errorMessage } from '../../../lib/api';
import { currentSiteBrand } from '../../../lib/site-brand';
import { usePageTitle } from '../../../lib/use-page-title';
import { cancelSandboxCheckout, paySandboxCheckout, useSandboxCheckout } from '../api/billing';

export default function SandboxCheckoutPage() {
  usePageTitle('Sandbox checkout');
  const { id = '' } = useParams();
  const checkout = useSandboxCheckout(id);
  const [busy, setBusy] = useState<'pay' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const act = async (action: 'pay' | 'cancel') => {
    setBusy(action);
    setError(null);
    try {
      const { redirectUrl } = await (action === 'pay' ? paySandboxCheckout(id) : cancelSandboxCheckout(id));
      window.location.assign(redirectUrl);
    } catch (caught) {
      setError(errorMessage(caught, 'The sandbox could not complete this. Please try again.'));
      setBusy(null);
    }
  };

  if (checkout.isPending) return <PageLoader />;

  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <Card className="w-full max-w-md space-y-6 p-8">
        <div className="flex items-center gap-2 text-sm font-medium text-amber-300">
          <FlaskConical aria-hidden className="size-4" /> Payment sandbox: no card is charged
        </div>
        {checkout.isError ? (
          <div className="space-y-4">
            <h1 className="text-2xl font-bold text-white">Checkout unavailable</h1>
            <p role="alert" className="text-red-200">
              {checkout.error instanceof ApiError && checkout.error.status === 401
                ? 'Please sign in to continue.'
                : errorMessage(checkout.error, 'This checkout could not be loaded.')}
            </p>
            <Link to={paths.account} className="text-brand-300 underline hover:text-brand-200">
              Go to your account
            </Link>
          </div>
        ) : (
          <>
            <div>
              <h1 className="text-2xl font-bold text-white">
                Subscribe to {currentSiteBrand().productName} {checkout.data.planName}
              </h1>
              <p className="mt-1 text-sm text-zinc-400">{checkout.data.email}</p>
            </div>
            <dl className="space-y-2 rounded-lg border border-ink-700 bg-ink-800/60 p-4">
              <div className="flex justify-between">
                <dt className="text-zinc-400">Plan</dt>
                <dd className="font-semibold text-white" data-testid="sandbox-plan">
                  {checkout.data.planName}
                </dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-zinc-400">Price</dt>
                <dd className="font-semibold text-white" data-testid="sandbox-price">
                  {checkout.data.priceLabel} per month
                </dd>
              </div>
            </dl>
            {checkout.data.status === 'open' ? (
              <div className="flex flex-col gap-3">
                <Button size="lg" disabled={busy !== null} onClick={() => act('pay')}>
                  <Lock aria-hidden className="size-4" /> {busy === 'pay' ? 'Paying...' : 'Pay'}
                </Button>
                <Button variant="outline" disabled={busy !== null} onClick={() => act('cancel')}>
                  Cancel
                </Button>
              </div>
            ) : (
              <p role="status" className="text-zinc-300">
                {checkout.data.status === 'paid'
                  ? 'This checkout has been paid.'
                  : 'This checkout was canceled.'}{' '}
                <Link to={paths.account} className="text-brand-300 underline hover:text-brand-200">
                  Go to your account
                </Link>
              </p>
            )}
            {error ? (
              <p role="alert" className="text-sm text-red-300">
                {error}
              </p>
            ) : null}
          </>
        )}
      </Card>
    </main>
  );
}
