/**
 * /dashboard/payouts (issue 38): how the account is paid. The payouts feature's overview and history,
 * composed here with the wallet's payment settings (the method) and the tax feature's form status, which
 * decide whether a payout goes out and how much is withheld.
 */
import { describeMaskedDetails } from '@tunedrop/shared/schemas/wallet';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { PageLoader } from '../../components/ui/card';
import { notify } from '../../components/ui/toast';
import { paths } from '../../config/paths';
import { PayoutHistory, PayoutsOverview, StripeConnectCard, usePayouts } from '../../features/payouts';
import { TaxFormSection } from '../../features/tax';
import {
  ConfirmPayoutDetailsCard,
  PaymentSettingsForm,
  PendingPayoutDetailsNotice,
  useWallet,
} from '../../features/wallet';
import { errorMessage } from '../../lib/api';
import { usePageTitle } from '../../lib/use-page-title';
import { useAccountCan } from '../../lib/viewer';

export default function PayoutsPage() {
  usePageTitle('Payouts');
  const payouts = usePayouts();
  const wallet = useWallet();
  // Payment settings are Finance's (record 205); every member reads the rest.
  const isFinance = useAccountCan()('finance');
  // A mailed confirmation link of new payout details (record 314) lands here with its token.
  const [searchParams, setSearchParams] = useSearchParams();
  const confirmToken = searchParams.get('confirm');

  // Saved payment details can lift a blocker (or start a hold): read the payouts again.
  const refetchPayouts = payouts.refetch;
  const walletUpdatedAt = wallet.dataUpdatedAt;
  useEffect(() => {
    if (walletUpdatedAt) void refetchPayouts();
  }, [walletUpdatedAt, refetchPayouts]);

  useEffect(() => {
    if (payouts.isError) notify.error(errorMessage(payouts.error, 'Failed to load your payouts'));
  }, [payouts.isError, payouts.error]);

  const header = (
    <header>
      <h1 className="text-3xl font-bold text-white">Payouts</h1>
      <p className="mt-1 text-zinc-400">
        How and when your balance is paid out to you. Earnings and withdrawals are on the{' '}
        <Link className="underline" to={paths.royalties}>
          Royalties
        </Link>{' '}
        page.
      </p>
    </header>
  );
  if (payouts.isPending) return <PageLoader />;
  if (payouts.isError) {
    return (
      <div className="space-y-4">
        {header}
        <p role="alert" className="text-zinc-300">
          Your payouts could not be loaded.
        </p>
        <Button variant="outline" onClick={() => payouts.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const saved = wallet.data?.paymentDetails ?? null;
  const pending = wallet.data?.pendingPaymentDetails ?? null;
  return (
    <div className="space-y-6">
      {header}
      {confirmToken ? (
        <ConfirmPayoutDetailsCard
          token={confirmToken}
          pending={pending?.details ?? null}
          onDone={() => setSearchParams({}, { replace: true })}
        />
      ) : null}
      {pending && !confirmToken ? (
        <PendingPayoutDetailsNotice pending={pending} current={saved} canResend={isFinance} />
      ) : null}
      <PayoutsOverview data={payouts.data} methodText={saved ? describeMaskedDetails(saved) : null} />
      <PayoutHistory payouts={payouts.data.payouts} />
      <TaxFormSection />
      {isFinance ? <StripeConnectCard /> : null}
      {isFinance && wallet.data ? (
        <PaymentSettingsForm savedMethod={wallet.data.paymentMethod} savedDetails={saved} />
      ) : null}
    </div>
  );
}
