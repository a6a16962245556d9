/**
 * The splits panel of the owner's release page (issue 17, record 140): the split in force per target
 * (release default, tracks with their own), the editor (payees by email and percentage, the owner's own
 * share, summing to exactly 100), invitations with held and paid money, expenses with the remaining
 * recoupment, and every version ever saved. Changing splits or adding expenses needs a subscription (record
 * 147): a lapsed owner sees them read-only.
 */
import {
  expenseSchema,
  hundredthsToPercent,
  percentToHundredths,
  type ReleaseSplits,
  SPLIT_LIMITS,
  SPLIT_TEXTS,
  type SplitVersionView,
  splitSetSchema,
} from '@tunedrop/shared/schemas/splits';
import { ROLE_LABELS, TEAM_TEXTS } from '@tunedrop/shared/schemas/team-roles';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Badge, Card, Spinner } from '../../../components/ui/card';
import { Field, Input, Label, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { formatCents, formatDate, formatDateTime } from '../../../lib/format';
import { useZodForm } from '../../../lib/use-zod-form';
import { useAccountCan, useViewer, viewerFacts } from '../../../lib/viewer';
import { useAddExpense, useReleaseSplits, useSaveSplit, useWithdrawPayee } from '../api/splits';

const STATUS_TONE = { pending: 'yellow', accepted: 'green', withdrawn: 'neutral' } as const;
const STATUS_LABEL = { pending: 'Invited, not accepted yet', accepted: 'Accepted', withdrawn: 'Withdrawn' };

const targetLabel = (version: Pick<SplitVersionView, 'trackId' | 'trackTitle'>) =>
  version.trackId === null
    ? 'Release default (every track without its own split)'
    : `Track: ${version.trackTitle}`;

export function ReleaseSplitsSection({ releaseId }: { releaseId: string }) {
  const splits = useReleaseSplits(releaseId);
  const { data: viewer } = useViewer();
  const passesGate = viewer ? viewerFacts(viewer).passesGate : false;
  // Splits and expenses are Catalog's (record 205): other roles read them, the server refuses their changes.
  const isCatalog = useAccountCan()('catalog');
  const canChange = passesGate && isCatalog;
  return (
    <section aria-labelledby="splits-title" className="space-y-4" data-testid="splits-section">
      <div>
        <h2 id="splits-title" className="text-xl font-semibold text-white">
          Royalty splits
        </h2>
        <p className="text-sm text-zinc-400">
          Share this release's earnings with collaborators. They need a free account, no subscription. Shares
          of someone who has not accepted yet are held for them. A change applies to reports posted after it.
        </p>
      </div>
      {splits.isPending ? (
        <Spinner className="text-brand-400" />
      ) : splits.isError ? (
        <p role="alert" className="text-sm text-red-400">
          The splits could not be loaded.
        </p>
      ) : (
        <>
          {splits.data.isReasonRequired ? (
            <p className="text-sm text-zinc-300">
              {splits.data.releaseTitle}, owned by {splits.data.ownerEmail}
            </p>
          ) : null}
          <CurrentSplits data={splits.data} />
          {canChange ? (
            <SplitEditor data={splits.data} />
          ) : (
            <p className="text-sm text-zinc-400" data-testid="splits-read-only">
              {isCatalog || !viewer
                ? "Resubscribe to change this release's splits or add expenses."
                : TEAM_TEXTS.roleRefused(ROLE_LABELS[viewer.account.role])}
            </p>
          )}
          <Payees data={splits.data} />
          <Expenses data={splits.data} canAdd={canChange} />
          <History data={splits.data} />
        </>
      )}
    </section>
  );
}

function CurrentSplits({ data }: { data: ReleaseSplits }) {
  if (data.current.length === 0) {
    return (
      <Card className="text-sm text-zinc-300" data-testid="splits-none">
        No split yet: you receive 100% of this release's earnings.
      </Card>
    );
  }
  return (
    <div className="grid gap-3 md:grid-cols-2">
      {data.current.map((version) => (
        <Card key={version.id} className="space-y-2" data-testid="split-current">
          <h3 className="font-medium text-white">{targetLabel(version)}</h3>
          <ul className="space-y-1 text-sm">
            <li className="flex justify-between gap-3">
              <span className="text-zinc-300">
                {data.isReasonRequired ? 'Owner' : 'You'} ({data.ownerEmail})
              </span>
              <span className="tabular-nums text-zinc-100">{version.ownerPercent}%</span>
            </li>
            {version.shares.map((share) => (
              <li key={share.payeeId} className="flex justify-between gap-3">
                <span className="flex flex-wrap items-center gap-2 text-zinc-300">
                  {share.email}
                  <Badge tone={STATUS_TONE[share.status]}>{STATUS_LABEL[share.status]}</Badge>
                </span>
                <span className="tabular-nums text-zinc-100">{share.percent}%</span>
              </li>
            ))}
          </ul>
          <p className="text-xs text-zinc-400">
            Version {version.version}, saved {formatDateTime(version.createdAt)}
          </p>
        </Card>
      ))}
    </div>
  );
}

function SplitEditor({ data }: { data: ReleaseSplits }) {
  const save = useSaveSplit(data.releaseId);
  const [target, setTarget] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const form = useZodForm(splitSetSchema, {
    defaultValues: { trackId: null, ownerPercent: '100', payees: [] },
  });
  const { register, control, handleSubmit, reset, watch, formState } = form;
  const payees = useFieldArray({ control, name: 'payees' });

  // Start from the split in force for the chosen target (its own, or the release default's figures).
  useEffect(() => {
    const own = data.current.find((version) => (version.trackId ?? '') === target);
    const base = own ?? data.current.find((version) => version.trackId === null);
    reset({
      trackId: target === '' ? null : target,
      ownerPercent: base?.ownerPercent ?? '100',
      payees: (base?.shares ?? [])
        .filter((share) => share.status !== 'withdrawn')
        .map((share) => ({ email: share.email, percent: share.percent })),
    });
  }, [target, data.current, reset]);

  const [ownerPercent, rows] = watch(['ownerPercent', 'payees']);
  const total = [ownerPercent, ...(rows ?? []).map((row) => row.percent)].reduce<number | null>(
    (sum, text) => {
      const value = percentToHundredths(text ?? '');
      return sum === null || value === null ? null : sum + value;
    },
    0,
  );

  const submit = handleSubmit((values) => {
    setFormError(null);
    // An admin's change of another account's split says why (record 229); the server refuses it without.
    if (data.isReasonRequired && !values.reason?.trim()) {
      form.setError('reason', { message: SPLIT_TEXTS.reasonRequired });
      return;
    }
    save.mutate(values, {
      onSuccess: () => notify.success('Split saved', 'It applies to reports posted from now on.'),
      onError: (error) =>
        setFormError(error instanceof ApiError ? error.message : 'The split could not be saved.'),
    });
  });
  const { errors } = formState;

  return (
    <Card>
      <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="split-editor-title">
        <h3 id="split-editor-title" className="font-medium text-white">
          Edit a split
        </h3>
        <div>
          <Label htmlFor="split-target">Applies to</Label>
          <Select id="split-target" value={target} onChange={(event) => setTarget(event.target.value)}>
            <option value="">Release default (every track without its own split)</option>
            {data.tracks.map((track) => (
              <option key={track.id} value={track.id}>
                Track {track.position}: {track.title}
              </option>
            ))}
          </Select>
        </div>
        <Field
          id="split-owner-percent"
          label={data.isReasonRequired ? 'The owner’s share (%)' : 'Your own share (%)'}
          error={errors.ownerPercent?.message}
        >
          <Input
            id="split-owner-percent"
            inputMode="decimal"
            {...register('ownerPercent')}
            aria-describedby="split-owner-percent-error"
          />
        </Field>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-zinc-200">Collaborators</legend>
          {payees.fields.map((field, index) => (
            <div key={field.id} className="grid gap-2 sm:grid-cols-[1fr_8rem_auto] sm:items-start">
              <Field
                id={`split-payee-email-${index}`}
                label={`Collaborator ${index + 1} email`}
                error={errors.payees?.[index]?.email?.message}
              >
                <Input
                  id={`split-payee-email-${index}`}
                  type="email"
                  autoComplete="off"
                  {...register(`payees.${index}.email`)}
                />
              </Field>
              <Field
                id={`split-payee-percent-${index}`}
                label="Share (%)"
                error={errors.payees?.[index]?.percent?.message}
              >
                <Input
                  id={`split-payee-percent-${index}`}
                  inputMode="decimal"
                  {...register(`payees.${index}.percent`)}
                />
              </Field>
              <Button
                variant="ghost"
                size="sm"
                className="sm:mt-6"
                onClick={() => payees.remove(index)}
                aria-label={`Remove collaborator ${index + 1}`}
              >
                <Trash2 aria-hidden className="size-4" />
              </Button>
            </div>
          ))}
          <Button variant="outline" size="sm" onClick={() => payees.append({ email: '', percent: '' })}>
            <Plus aria-hidden className="size-4" /> Add collaborator
          </Button>
        </fieldset>
        {data.isReasonRequired ? (
          <Field id="split-reason" label={SPLIT_TEXTS.reasonLabel} error={errors.reason?.message}>
            <Input
              id="split-reason"
              required
              aria-required
              maxLength={500}
              {...register('reason')}
              aria-describedby="split-reason-error"
            />
          </Field>
        ) : null}
        <p className="text-sm text-zinc-300" data-testid="split-total">
          Total: {total === null ? '—' : `${hundredthsToPercent(total)}%`} (must be exactly 100.00%)
        </p>
        {formError ? (
          <p role="alert" className="text-sm text-red-400">
            {formError}
          </p>
        ) : null}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save split'}
        </Button>
      </form>
    </Card>
  );
}

function Payees({ data }: { data: ReleaseSplits }) {
  const withdraw = useWithdrawPayee(data.releaseId);
  if (data.payees.length === 0) return null;
  return (
    <Card className="space-y-3">
      <h3 className="font-medium text-white">Collaborators</h3>
      {data.heldCents > 0 ? (
        <p className="text-sm text-amber-200" data-testid="splits-held">
          {formatCents(data.heldCents)} is held for collaborators who have not accepted yet.
        </p>
      ) : null}
      <ul className="divide-y divide-ink-800 text-sm">
        {data.payees.map((payee) => (
          <li
            key={payee.id}
            className="flex flex-wrap items-center justify-between gap-3 py-2"
            data-testid="split-payee"
          >
            <div className="space-y-1">
              <p className="flex flex-wrap items-center gap-2 text-zinc-100">
                {payee.email} <Badge tone={STATUS_TONE[payee.status]}>{STATUS_LABEL[payee.status]}</Badge>
              </p>
              <p className="text-zinc-400">
                Invited {formatDate(payee.invitedAt)} · paid {formatCents(payee.paidCents)}
                {payee.heldCents !== 0 ? ` · held ${formatCents(payee.heldCents)}` : ''}
              </p>
            </div>
            {payee.status === 'pending' ? (
              <Button
                variant="outline"
                size="sm"
                disabled={withdraw.isPending}
                onClick={() =>
                  withdraw.mutate(payee.id, {
                    onSuccess: () =>
                      notify.success(
                        'Invitation withdrawn',
                        'Money held for them returns to you with the next posted report.',
                      ),
                    onError: (error) => notify.error(error.message, 'Could not withdraw the invitation'),
                  })
                }
              >
                Withdraw invitation
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Expenses({ data, canAdd }: { data: ReleaseSplits; canAdd: boolean }) {
  const add = useAddExpense(data.releaseId);
  const { register, handleSubmit, reset, formState } = useZodForm(expenseSchema, {
    defaultValues: { amount: '', description: '', spentOn: new Date().toISOString().slice(0, 10) },
  });
  const submit = handleSubmit((values) =>
    add.mutate(values, {
      onSuccess: () => {
        notify.success('Expense recorded', 'It is repaid to you from this release before splits apply.');
        reset({ amount: '', description: '', spentOn: values.spentOn });
      },
      onError: (error) => notify.error(error.message, 'Could not record the expense'),
    }),
  );
  const { errors } = formState;
  const { recoupment } = data;
  return (
    <Card className="space-y-3">
      <h3 className="font-medium text-white">Expenses to recoup</h3>
      <p className="text-sm text-zinc-400">
        Your collaborators see each expense with its description and are mailed when you add one. At most{' '}
        {formatCents(SPLIT_LIMITS.maxOutstandingExpenseCents)} may be waiting to be recouped at once.
      </p>
      <p className="text-sm text-zinc-300" data-testid="recoupment">
        Expenses {formatCents(recoupment.expensesCents)} · recouped {formatCents(recoupment.recoupedCents)} ·
        remaining {formatCents(recoupment.remainingCents)}
      </p>
      {data.expenses.length > 0 ? (
        <ul className="divide-y divide-ink-800 text-sm">
          {data.expenses.map((expense) => (
            <li key={expense.id} className="flex justify-between gap-3 py-1.5">
              <span className="text-zinc-300">
                {formatDate(expense.spentOn)} · {expense.description}
              </span>
              <span className="tabular-nums text-zinc-100">{formatCents(expense.amountCents)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {canAdd ? (
        <form
          onSubmit={submit}
          noValidate
          className="grid gap-2 sm:grid-cols-[8rem_1fr_10rem_auto] sm:items-start"
        >
          <Field id="expense-amount" label="Amount (USD)" error={errors.amount?.message}>
            <Input id="expense-amount" inputMode="decimal" {...register('amount')} />
          </Field>
          <Field id="expense-description" label="Description" error={errors.description?.message}>
            <Input id="expense-description" {...register('description')} />
          </Field>
          <Field id="expense-date" label="Date" error={errors.spentOn?.message}>
            <Input id="expense-date" type="date" {...register('spentOn')} />
          </Field>
          <Button type="submit" className="sm:mt-6" disabled={add.isPending}>
            Add expense
          </Button>
        </form>
      ) : null}
    </Card>
  );
}

function History({ data }: { data: ReleaseSplits }) {
  if (data.history.length === 0) return null;
  return (
    <details className="rounded-xl border border-ink-700 bg-ink-900 p-4">
      <summary className="cursor-pointer font-medium text-white">
        Split history ({data.history.length})
      </summary>
      <ol className="mt-3 space-y-2 text-sm" data-testid="split-history">
        {data.history.map((version) => (
          <li key={version.id} className="rounded-lg border border-ink-800 p-3">
            <p className="text-zinc-100">
              {targetLabel(version)} · version {version.version}
            </p>
            <p className="text-zinc-400">
              {formatDateTime(version.createdAt)}
              {version.createdByEmail ? ` by ${version.createdByEmail}` : ''}: you {version.ownerPercent}%
              {version.shares.map((share) => `, ${share.email} ${share.percent}%`).join('')}
            </p>
          </li>
        ))}
      </ol>
    </details>
  );
}
