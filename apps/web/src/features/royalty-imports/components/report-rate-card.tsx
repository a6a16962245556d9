/**
 * The exchange rate of a staged non-USD report (record 187): set it when the upload had none (the report
 * then has errors), or change it before posting. The server re-runs the rate checks; a report held only
 * for its rate becomes ready to post.
 */
import { reportRateSchema } from '@tunedrop/shared/schemas/royalty-checks';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useSetRate } from '../api/report-checks';

export function ReportRateCard({
  importId,
  currency,
  rate,
}: {
  importId: string;
  currency: string;
  /** The rate kept on the report; empty when it has none. */
  rate: string;
}) {
  const setRate = useSetRate(importId);
  const form = useZodForm(reportRateSchema, { defaultValues: { rate } });
  const submit = form.handleSubmit((values) =>
    setRate.mutate(values.rate, {
      onSuccess: (summary) =>
        notify.success(
          'Exchange rate saved',
          summary.status === 'staged' ? 'The report is ready to post.' : 'The report still has errors.',
        ),
      onError: (error) => notify.error(errorMessage(error, 'The exchange rate could not be saved.')),
    }),
  );
  const error = form.formState.errors.rate?.message;
  return (
    <Card data-testid="report-rate">
      <h2 className="font-semibold text-white">Exchange rate</h2>
      <p className="mt-1 text-sm text-zinc-400">
        The report is in {currency}.{' '}
        {rate ? 'You can change its rate until it is posted.' : 'Give its rate to USD to post it.'}
      </p>
      <form className="mt-3 flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
        <div className="w-56">
          <Field id="report-rate" label={`1 ${currency} = ? USD`} error={error}>
            <Input
              id="report-rate"
              inputMode="decimal"
              autoComplete="off"
              placeholder="e.g. 1.2731"
              aria-invalid={Boolean(error)}
              aria-describedby="report-rate-error"
              {...form.register('rate')}
            />
          </Field>
        </div>
        <Button type="submit" disabled={setRate.isPending}>
          {rate ? 'Change rate' : 'Set rate'}
        </Button>
      </form>
    </Card>
  );
}
