/** Non-US regime: the payee's VAT/GST number and rate, and their self-billing invoices (issue 38). */
import { formatCents } from '@tunedrop/shared';
import { vatRegistrationSchema } from '@tunedrop/shared/schemas/tax';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useSaveVatRegistration, useSelfBillingInvoices, useVatRegistration } from '../api/tax-vat';

export function VatSection({ canEdit }: { canEdit: boolean }) {
  const vat = useVatRegistration();
  const invoices = useSelfBillingInvoices();
  const save = useSaveVatRegistration();
  const [number, setNumber] = useState('');
  const [rate, setRate] = useState('');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (vat.data?.vat) {
      setNumber(vat.data.vat.vatNumber);
      setRate(vat.data.vat.ratePercent);
    }
  }, [vat.data]);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = vatRegistrationSchema.safeParse({ vatNumber: number, ratePercent: rate });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    save.mutate(parsed.data, {
      onSuccess: () => notify.success('VAT registration saved.'),
      onError: (failure) => notify.error(errorMessage(failure, 'Failed to save the VAT registration.')),
    });
  };
  return (
    <div className="space-y-3" data-testid="vat-section">
      {canEdit ? (
        <form onSubmit={onSubmit} noValidate className="grid gap-3 sm:grid-cols-3">
          <Field id="vat-number" label="VAT/GST number" error={error}>
            <Input id="vat-number" value={number} onChange={(event) => setNumber(event.target.value)} />
          </Field>
          <Field id="vat-rate" label="VAT rate (%)">
            <Input
              id="vat-rate"
              inputMode="decimal"
              value={rate}
              onChange={(event) => setRate(event.target.value)}
            />
          </Field>
          <div className="self-end">
            <Button type="submit" disabled={save.isPending}>
              Save VAT registration
            </Button>
          </div>
        </form>
      ) : null}
      <ul className="text-sm text-zinc-300" aria-label="Self-billing invoices">
        {(invoices.data?.invoices ?? []).map((invoice) => (
          <li key={invoice.id}>
            <a className="underline" href={`/api/tax/invoices/${invoice.id}/pdf`}>
              {invoice.numberText}
            </a>{' '}
            · {invoice.createdAt.slice(0, 10)} · {formatCents(invoice.totalCents)}
          </li>
        ))}
      </ul>
    </div>
  );
}
