/** Withdrawal Management (admin only): search, Pending and Completed tabs, approve and reject. */
import {
  ADMIN_WITHDRAWALS_TEXTS,
  type AdminWithdrawal,
  WITHDRAWAL_TABS,
  type WithdrawalTab,
} from '@tunedrop/shared/schemas/admin-withdrawals';
import { useEffect, useState } from 'react';
import { PageLoader, Spinner } from '../../../components/ui/card';
import { CountTabs } from '../../../components/ui/count-tabs';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Pager } from '../../../components/ui/pager';
import { ReasonDialog } from '../../../components/ui/reason-dialog';
import { SearchInput } from '../../../components/ui/search-input';
import { notify } from '../../../components/ui/toast';
import { pageCountOf, useListParams, usePageClamp } from '../../../components/ui/use-list-params';
import { ApiError } from '../../../lib/api';
import { formatCents } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAdminWithdrawals, useDecideWithdrawal } from '../api/admin-withdrawals';
import { WithdrawalCard } from '../components/withdrawal-card';

function showFailure(error: unknown, fallback: string) {
  if (error instanceof ApiError && error.status === 404) {
    notify.error(ADMIN_WITHDRAWALS_TEXTS.notFound.description, ADMIN_WITHDRAWALS_TEXTS.notFound.title);
  } else if (error instanceof ApiError && error.code === 'rejection_reason_required') {
    notify.error(error.message, ADMIN_WITHDRAWALS_TEXTS.rejectionReasonRequired.title);
  } else {
    notify.error(fallback);
  }
}

const tabIds = WITHDRAWAL_TABS.map((item) => item.id);

export default function AdminWithdrawalsPage() {
  usePageTitle('Withdrawal Management');
  const list = useListParams<WithdrawalTab>({ tabs: tabIds, defaultTab: 'pending' });
  const { tab, q, page } = list;
  const withdrawals = useAdminWithdrawals({ q, tab, page });
  const decide = useDecideWithdrawal();
  const [approving, setApproving] = useState<AdminWithdrawal | null>(null);
  const [rejecting, setRejecting] = useState<AdminWithdrawal | null>(null);
  const data = withdrawals.data;
  const pageCount = data ? pageCountOf(data.total, data.pageSize) : undefined;
  usePageClamp(list, pageCount);

  useEffect(() => {
    if (withdrawals.isError) notify.error('Failed to fetch withdrawal requests');
  }, [withdrawals.isError]);

  const approve = () => {
    if (!approving) return;
    const item = approving;
    decide.mutate(
      { id: item.id, kind: 'approve' },
      {
        onSuccess: () =>
          notify.success(
            'Withdrawal approved',
            `${formatCents(item.amountCents)} to ${item.email} is marked as completed.`,
          ),
        onError: (error) => showFailure(error, 'Failed to approve withdrawal'),
        onSettled: () => setApproving(null),
      },
    );
  };

  const reject = (reason: string) => {
    if (!rejecting) return;
    const item = rejecting;
    decide.mutate(
      { id: item.id, kind: 'reject', reason },
      {
        onSuccess: () => {
          notify.success(
            'Withdrawal rejected',
            `${formatCents(item.amountCents)} has been returned to ${item.email}'s balance.`,
          );
          setRejecting(null);
        },
        onError: (error) => {
          showFailure(error, 'Failed to reject withdrawal');
          if (!(error instanceof ApiError && error.code === 'rejection_reason_required')) setRejecting(null);
        },
      },
    );
  };

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-white">Withdrawal Management</h1>
          <p className="mt-1 text-zinc-400">Pay out, approve or reject artists' withdrawal requests.</p>
        </div>
        {data ? (
          <p className="text-sm text-zinc-300" data-testid="pending-total">
            Pending total:{' '}
            <span className="font-semibold text-white">{formatCents(data.pendingTotalCents)}</span>
          </p>
        ) : null}
      </header>
      <SearchInput
        label="Search by artist name or email"
        value={list.searchText}
        onChange={list.setSearchText}
        onSubmit={list.submitSearch}
      />
      <CountTabs
        label="Withdrawal status"
        tabs={WITHDRAWAL_TABS}
        value={tab}
        onValueChange={list.setTab}
        counts={data?.counts}
      >
        {withdrawals.isPending ? (
          <PageLoader />
        ) : !data ? (
          <p className="text-zinc-400">Withdrawal requests could not be loaded.</p>
        ) : data.withdrawals.length === 0 ? (
          <p className="text-zinc-400">
            {tab === 'pending' ? 'No pending withdrawal requests.' : 'No processed withdrawal requests.'}
          </p>
        ) : (
          <div className="space-y-3">
            {withdrawals.isFetching ? <Spinner className="size-4 text-brand-400" label="Updating" /> : null}
            {data.withdrawals.map((item) => (
              <WithdrawalCard
                key={item.id}
                item={item}
                isBusy={decide.isPending && decide.variables?.id === item.id}
                onApprove={setApproving}
                onReject={setRejecting}
              />
            ))}
          </div>
        )}
      </CountTabs>
      <Pager page={page} pageCount={pageCount ?? 1} onPageChange={list.setPage} />
      <ConfirmDialog
        open={approving !== null}
        onOpenChange={(open) => {
          if (!open) setApproving(null);
        }}
        title="Approve Withdrawal"
        description={
          approving
            ? `Mark ${formatCents(approving.amountCents)} to ${approving.email} as paid? Approve only after sending the payment.`
            : ''
        }
        confirmLabel="Approve"
        onConfirm={approve}
        isPending={decide.isPending}
      />
      <ReasonDialog
        open={rejecting !== null}
        onOpenChange={(open) => {
          if (!open) setRejecting(null);
        }}
        title="Reject Withdrawal"
        description={
          rejecting
            ? `${formatCents(rejecting.amountCents)} will be returned to ${rejecting.email}'s available balance.`
            : ''
        }
        label="Reason"
        hint="The artist sees this reason."
        confirmLabel="Reject Withdrawal"
        pendingLabel="Rejecting..."
        requiredTitle={ADMIN_WITHDRAWALS_TEXTS.rejectionReasonRequired.title}
        requiredMessage={ADMIN_WITHDRAWALS_TEXTS.rejectionReasonRequired.description}
        isPending={decide.isPending}
        onConfirm={reject}
      />
    </div>
  );
}
