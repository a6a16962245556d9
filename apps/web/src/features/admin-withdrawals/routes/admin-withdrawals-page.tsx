/** Withdrawal Management (admin only): search, Pending and Completed tabs, approve and reject. */
import { formatCents } from '@tunedrop/shared';
import {
  ADMIN_WITHDRAWALS_TEXTS,
  type AdminWithdrawal,
  WITHDRAWAL_TABS,
  type WithdrawalTab,
} from '@tunedrop/shared/schemas/admin-withdrawals';
import { Search } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { PageLoader, Spinner } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { ReasonDialog } from '../../../components/ui/reason-dialog';
import { notify } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
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

export default function AdminWithdrawalsPage() {
  usePageTitle('Withdrawal Management');
  const [params, setParams] = useSearchParams();
  const tab: WithdrawalTab = params.get('tab') === 'completed' ? 'completed' : 'pending';
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [draft, setDraft] = useState(q);
  const list = useAdminWithdrawals({ q, tab, page });
  const decide = useDecideWithdrawal();
  const [approving, setApproving] = useState<AdminWithdrawal | null>(null);
  const [rejecting, setRejecting] = useState<AdminWithdrawal | null>(null);

  useEffect(() => {
    if (list.isError) notify.error('Failed to fetch withdrawal requests');
  }, [list.isError]);

  useEffect(() => {
    const timer = setTimeout(() => {
      if (draft.trim() === q) return;
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (draft.trim()) next.set('q', draft.trim());
        else next.delete('q');
        next.delete('page');
        return next;
      });
    }, 300);
    return () => clearTimeout(timer);
  }, [draft, q, setParams]);

  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      return next;
    });

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

  const data = list.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

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
      <div className="relative max-w-xl">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-500"
        />
        <Input
          type="search"
          aria-label="Search by artist name or email"
          placeholder="Search by artist name or email"
          className="pl-9"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
      </div>
      <Tabs.Root
        value={tab}
        onValueChange={(value) => update({ tab: value === 'pending' ? null : value, page: null })}
      >
        <Tabs.List aria-label="Withdrawal status" className="flex gap-1 border-b border-ink-800">
          {WITHDRAWAL_TABS.map((item) => (
            <Tabs.Trigger
              key={item.id}
              value={item.id}
              className={cn(
                '-mb-px flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium',
                tab === item.id
                  ? 'border-brand-400 text-white'
                  : 'border-transparent text-zinc-400 hover:text-white',
              )}
            >
              {item.label}
              <span className="rounded-full bg-ink-700 px-2 py-0.5 text-xs tabular-nums">
                {data?.counts[item.id] ?? '–'}
              </span>
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value={tab} className="pt-4 focus-visible:outline-none">
          {list.isPending ? (
            <PageLoader />
          ) : !data ? (
            <p className="text-zinc-400">Withdrawal requests could not be loaded.</p>
          ) : data.withdrawals.length === 0 ? (
            <p className="text-zinc-400">
              {tab === 'pending' ? 'No pending withdrawal requests.' : 'No processed withdrawal requests.'}
            </p>
          ) : (
            <div className="space-y-3">
              {list.isFetching ? <Spinner className="size-4 text-brand-400" label="Updating" /> : null}
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
        </Tabs.Content>
      </Tabs.Root>
      {data && data.total > data.pageSize ? (
        <nav aria-label="Pages" className="flex items-center justify-between gap-3">
          <Button
            variant="outline"
            size="sm"
            disabled={page <= 1}
            onClick={() => update({ page: String(page - 1) })}
          >
            Previous
          </Button>
          <p className="text-sm text-zinc-400">
            Page {page} of {pageCount}
          </p>
          <Button
            variant="outline"
            size="sm"
            disabled={page >= pageCount}
            onClick={() => update({ page: String(page + 1) })}
          >
            Next
          </Button>
        </nav>
      ) : null}
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
