/** One withdrawal request for the admin: who, how much, where to pay it, and its outcome. */
import type { AdminWithdrawal } from '@tunedrop/shared/schemas/admin-withdrawals';
import type { BankDetails, PaypalDetails } from '@tunedrop/shared/schemas/wallet';
import type { WiseDetails } from '@tunedrop/shared/schemas/wise-recipient';
import { Check, X } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { StatusBadge, statusLabel } from '../../../components/ui/status-badge';
import { formatCents, formatDateTime } from '../../../lib/format';

function wiseRows(wise: WiseDetails): [string, string][] {
  return [
    ['Wise account holder', wise.wise_account_holder],
    ['Currency', wise.wise_currency],
    ...(wise.wise_currency === 'EUR'
      ? ([['IBAN', wise.wise_iban]] as [string, string][])
      : ([
          ['Sort code', wise.wise_sort_code],
          ['Account number', wise.wise_account_number],
        ] as [string, string][])),
    ['Address', `${wise.wise_address}, ${wise.wise_post_code} ${wise.wise_city}, ${wise.wise_country}`],
  ];
}

function PaymentDetails({ item }: { item: AdminWithdrawal }) {
  if (!item.paymentDetails) {
    return (
      <p className="text-sm text-amber-300">
        Payment details cannot be read; ask the artist to save them again.
      </p>
    );
  }
  const rows: [string, string][] =
    item.paymentMethod === 'bank'
      ? [
          ['Account name', (item.paymentDetails as BankDetails).account_name],
          ['Account number', (item.paymentDetails as BankDetails).account_number],
          ['Routing number', (item.paymentDetails as BankDetails).routing_number],
          ['Bank name', (item.paymentDetails as BankDetails).bank_name],
        ]
      : item.paymentMethod === 'wise'
        ? wiseRows(item.paymentDetails as WiseDetails)
        : [['PayPal email', (item.paymentDetails as PaypalDetails).paypal_email]];
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-zinc-400">{label}</dt>
          <dd className="font-mono break-all text-zinc-100">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function WithdrawalCard({
  item,
  isBusy,
  onApprove,
  onReject,
}: {
  item: AdminWithdrawal;
  isBusy: boolean;
  onApprove: (item: AdminWithdrawal) => void;
  onReject: (item: AdminWithdrawal) => void;
}) {
  return (
    <Card className="space-y-4" data-testid="withdrawal-card">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold text-white">{item.artistName}</h3>
            <StatusBadge kind="withdrawal" status={item.status} />
          </div>
          <p className="text-sm text-zinc-300">{item.email}</p>
          <p className="text-xs text-zinc-400">
            Requested {formatDateTime(item.requestedAt)} · Current balance{' '}
            {formatCents(item.userBalanceCents)}
          </p>
        </div>
        <p className="text-2xl font-bold text-white tabular-nums">{formatCents(item.amountCents)}</p>
      </div>
      <div>
        <p className="mb-1 text-xs font-medium tracking-wide text-zinc-400 uppercase">
          {item.paymentMethod === 'bank' ? 'Bank transfer' : 'PayPal'}
        </p>
        <PaymentDetails item={item} />
      </div>
      {item.status === 'pending' ? (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={isBusy} onClick={() => onApprove(item)}>
            <Check aria-hidden className="size-4" /> Approve
          </Button>
          <Button size="sm" variant="danger" disabled={isBusy} onClick={() => onReject(item)}>
            <X aria-hidden className="size-4" /> Reject
          </Button>
        </div>
      ) : (
        <p className="text-sm text-zinc-400">
          {statusLabel('withdrawal', item.status)}
          {item.processedAt ? ` ${formatDateTime(item.processedAt)}` : ''}
          {item.status === 'cancelled'
            ? ' by the artist'
            : item.processedByEmail
              ? ` by ${item.processedByEmail}`
              : ''}
          {item.rejectionReason ? ` · Reason: ${item.rejectionReason}` : ''}
        </p>
      )}
    </Card>
  );
}
