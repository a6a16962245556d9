/** Admin Settings: the legal name and address royalty statements are issued in (record 190). */
import {
  STATEMENT_ISSUER_DEFAULT_NAME,
  STATEMENT_TEXTS,
  type StatementIssuerView,
  statementIssuerSchema,
} from '@tunedrop/shared/schemas/royalty-statements';
import { Save } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input, Textarea } from '../../../components/ui/input';
import { SettingsCard } from '../../../components/ui/settings-card';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useSaveStatementIssuer, useStatementIssuer } from '../api/statement-issuer';

export function StatementIssuerCard() {
  const issuer = useStatementIssuer();
  return (
    <SettingsCard
      title="Statement issuer"
      description="Royalty statements (PDF and CSV) are issued in this name, with this address. Not set, they carry the product's name (Brand, above) and no address."
      query={issuer}
      loadError="Failed to load the statement issuer."
      testId="statement-issuer"
    >
      {(data) => <StatementIssuerForm issuer={data} />}
    </SettingsCard>
  );
}

const valuesOf = (issuer: StatementIssuerView) => ({
  legalName: issuer.source === 'settings' ? issuer.legalName : '',
  address: issuer.address,
});

function StatementIssuerForm({ issuer }: { issuer: StatementIssuerView }) {
  const save = useSaveStatementIssuer();
  const form = useZodForm(statementIssuerSchema, { defaultValues: valuesOf(issuer) });
  const errors = form.formState.errors;
  useEffect(() => form.reset(valuesOf(issuer)), [issuer, form]);

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => notify.success(STATEMENT_TEXTS.issuerSaved),
      onError: (failure) => {
        for (const field of ['legalName', 'address'] as const) {
          const message = failure instanceof ApiError ? failure.fields?.[field] : undefined;
          if (message) form.setError(field, { message });
        }
        notify.error(errorMessage(failure, 'Failed to save the statement issuer.'));
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field id="issuer-legalName" label="Legal name" error={errors.legalName?.message}>
        <Input
          id="issuer-legalName"
          placeholder={STATEMENT_ISSUER_DEFAULT_NAME}
          aria-invalid={errors.legalName ? true : undefined}
          aria-describedby={errors.legalName ? 'issuer-legalName-error' : undefined}
          autoComplete="organization"
          {...form.register('legalName')}
        />
      </Field>
      <Field
        id="issuer-address"
        label="Address"
        error={errors.address?.message}
        hint="One line per line of the address."
      >
        <Textarea
          id="issuer-address"
          rows={3}
          aria-invalid={errors.address ? true : undefined}
          aria-describedby={errors.address ? 'issuer-address-error' : undefined}
          autoComplete="street-address"
          {...form.register('address')}
        />
      </Field>
      <Button type="submit" disabled={save.isPending || !form.formState.isDirty}>
        <Save aria-hidden className="size-4" /> Save statement issuer
      </Button>
    </form>
  );
}
