/**
 * /dashboard/royalties, Royalties and Wallet (spec 02 §2): composed here, as features never import each
 * other (issue 37): the earnings ledger and statements (features/royalties, served by modules/royalties)
 * beside the wallet's balances, plan minimum, withdrawals and payment settings (features/wallet, served by
 * modules/wallet), the payee's split shares (features/splits) and the tax form (features/tax).
 */
import { centsToDecimal } from '@tunedrop/shared/money';
import { checkWithdrawal, WALLET_TEXTS } from '@tunedrop/shared/schemas/wallet';
import { Info } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, PageLoader } from '../../components/ui/card';
import { notify } from '../../components/ui/toast';
import { LedgerSection, StatementsSection } from '../../features/royalties';
import { PayeeShares } from '../../features/splits';
import { TaxFormSection } from '../../features/tax';
import {
  BalanceCards,
  MinimumWithdrawal,
  PaymentSettingsForm,
  PendingRequests,
  useWallet,
  WithdrawalDialog,
} from '../../features/wallet';
import { usePageTitle } from '../../lib/use-page-title';
import { useAccountCan } from '../../lib/viewer';

export default function RoyaltiesPage() {
  usePageTitle('Royalties and Wallet');
  const wallet = useWallet();
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  // Withdrawals and payment settings are Finance's (record 205); every member reads the rest.
  const isFinance = useAccountCan()('finance');

  useEffect(() => {
    if (wallet.isError) notify.error('Failed to load payment information');
  }, [wallet.isError]);

  if (wallet.isPending) return <PageLoader />;
  if (wallet.isError) {
    return (
      <div className="space-y-4">
        <h1 className="text-3xl font-bold text-white">Royalties and Wallet</h1>
        <p role="alert" className="text-zinc-300">
          Your wallet could not be loaded.
        </p>
        <Button variant="outline" onClick={() => wallet.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const data = wallet.data;

  // The first two §5 checks come before the dialog opens; the amount checks run in it.
  const openDialog = () => {
    const checked = checkWithdrawal({
      hasPaymentInfo: data.paymentDetails !== null,
      balanceCents: data.balanceCents,
      minimumCents: data.minimumWithdrawalCents,
      amount: centsToDecimal(data.balanceCents),
    });
    if (
      !checked.ok &&
      (checked.error.code === 'payment_info_required' || checked.error.code === 'balance_below_minimum')
    ) {
      notify.error(checked.error.description, checked.error.title);
      return;
    }
    setIsDialogOpen(true);
  };

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-3xl font-bold text-white">Royalties and Wallet</h1>
        <p className="mt-1 text-zinc-400">Track your earnings and withdraw your royalties.</p>
      </header>

      <BalanceCards
        balanceCents={data.balanceCents}
        totalEarningsCents={data.totalEarningsCents}
        pendingBalanceCents={data.pendingBalanceCents}
      />

      <Card className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold text-white">Withdraw Earnings</h2>
          <MinimumWithdrawal wallet={data} />
        </div>
        {isFinance ? <Button onClick={openDialog}>Request Withdrawal</Button> : null}
      </Card>

      <PendingRequests requests={data.pendingRequests} canCancel={isFinance} />

      <TaxFormSection />

      <PayeeShares />

      <StatementsSection />

      <LedgerSection />

      {isFinance ? (
        <PaymentSettingsForm savedMethod={data.paymentMethod} savedDetails={data.paymentDetails} />
      ) : null}

      <p className="flex items-start gap-2 rounded-lg border border-ink-700 bg-ink-800/50 p-4 text-sm text-zinc-300">
        <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-400" />
        {WALLET_TEXTS.earningsNote}
      </p>

      <WithdrawalDialog wallet={data} open={isDialogOpen} onOpenChange={setIsDialogOpen} />
    </div>
  );
}
