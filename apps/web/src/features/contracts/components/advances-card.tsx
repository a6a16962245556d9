/**
 * A contract's advances and recoupable costs (issue 39, record 286): what the label advanced or spent, the
 * part the royalties repay, what they have repaid and what is unrecouped; a form records a new one (never
 * edited: a correction is another entry).
 */
import { formatCents } from '@tunedrop/shared';
import {
  CONTRACT_ADVANCE_KINDS,
  CONTRACT_ADVANCE_LABELS,
  CONTRACT_TEXTS,
  contractAdvanceSchema,
} from '@tunedrop/shared/schemas/contracts';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { Field, Input, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useRecordAdvance, useRecoupment } from '../api/contracts';

export function AdvancesCard({ contractId }: { contractId: string }) {
  const recoupment = useRecoupment(contractId);
  const record = useRecordAdvance(contractId);
  const form = useZodForm(contractAdvanceSchema, {
    defaultValues: { kind: 'advance', amount: '', recoupablePercent: '100', memo: null },
  });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit((values) =>
    record.mutate(values, {
      onSuccess: () => {
        notify.success(CONTRACT_TEXTS.advanceRecorded);
        form.reset();
      },
      onError: (failure) => {
        const fields = failure instanceof ApiError ? (failure.fields ?? {}) : {};
        if (fields.amount) form.setError('amount', { message: fields.amount });
        notify.error(errorMessage(failure, 'Failed to record it.'));
      },
    }),
  );
  return (
    <Card className="space-y-4 p-5">
      <h2 className="text-xl font-semibold text-white">Advances and costs</h2>
      {recoupment.isPending ? (
        <PageLoader />
      ) : recoupment.isError ? (
        <p role="alert" className="text-zinc-300">
          {errorMessage(recoupment.error, 'Failed to load the advances.')}
        </p>
      ) : (
        <>
          <p className="text-sm text-zinc-200" data-testid="unrecouped">
            Unrecouped: {formatCents(recoupment.data.unrecoupedCents)} (repaid{' '}
            {formatCents(recoupment.data.recoupedCents)} of {formatCents(recoupment.data.recoupableCents)})
          </p>
          {recoupment.data.advances.length > 0 ? (
            <ul className="divide-y divide-ink-800 text-sm" aria-label="Advances and costs">
              {recoupment.data.advances.map((advance) => (
                <li key={advance.id} className="flex flex-wrap justify-between gap-2 py-2 text-zinc-200">
                  <span>
                    {CONTRACT_ADVANCE_LABELS[advance.kind]}
                    {advance.memo ? ` — ${advance.memo}` : ''} ({advance.recoupablePercent}% recoupable)
                  </span>
                  <span className="tabular-nums">{formatCents(advance.amountCents)}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid gap-3 sm:grid-cols-2"
        aria-label="Record an advance"
      >
        <Field id="advance-kind" label="Kind">
          <Select id="advance-kind" {...form.register('kind')}>
            {CONTRACT_ADVANCE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {CONTRACT_ADVANCE_LABELS[kind]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="advance-amount" label="Amount (USD)" error={errors.amount?.message}>
          <Input id="advance-amount" inputMode="decimal" autoComplete="off" {...form.register('amount')} />
        </Field>
        <Field id="advance-percent" label="Recoupable (%)" error={errors.recoupablePercent?.message}>
          <Input
            id="advance-percent"
            inputMode="decimal"
            autoComplete="off"
            {...form.register('recoupablePercent')}
          />
        </Field>
        <Field id="advance-memo" label="Note (optional)">
          <Input id="advance-memo" autoComplete="off" {...form.register('memo')} />
        </Field>
        <div>
          <Button type="submit" disabled={record.isPending}>
            Record
          </Button>
        </div>
      </form>
    </Card>
  );
}
