/** The account's tax form status and the interview (issue 38): what applies to payouts, in plain words. */
import { TAX_FORM_LABELS } from '@tunedrop/shared/schemas/tax';
import { FileText } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api';
import { useAccountCan } from '../../../lib/viewer';
import { useTaxStanding } from '../api/tax-standing';
import { TaxInterview } from './tax-interview';
import { VatSection } from './vat-section';

export function TaxFormSection() {
  const standing = useTaxStanding();
  const canSign = useAccountCan()('owner');
  const [isOpen, setIsOpen] = useState(false);
  return (
    <Card className="space-y-4" data-testid="tax-form-section">
      <div>
        <h2 className="text-lg font-semibold text-white">Tax form</h2>
        {standing.isPending ? (
          <PageLoader />
        ) : standing.isError ? (
          <p role="alert" className="text-zinc-300">
            {errorMessage(standing.error, 'Failed to load your tax form status.')}
          </p>
        ) : (
          <>
            <p className="text-sm text-zinc-200" data-testid="tax-standing">
              {standing.data.standing.summary}
            </p>
            {standing.data.standing.form ? (
              <p className="mt-1 text-xs text-zinc-400" data-testid="tax-form-on-file">
                {TAX_FORM_LABELS[standing.data.standing.form.kind]} signed{' '}
                {standing.data.standing.form.signedAt.slice(0, 10)} by{' '}
                {standing.data.standing.form.signatureName || '(not signed)'} · TIN{' '}
                {standing.data.standing.form.tinMasked}
                {standing.data.standing.form.expiresOn
                  ? ` · valid until ${standing.data.standing.form.expiresOn}`
                  : ''}{' '}
                ·{' '}
                <a className="underline" href={`/api/tax/forms/${standing.data.standing.form.id}/pdf`}>
                  <FileText aria-hidden className="inline size-3" /> Download the signed form (PDF)
                </a>
              </p>
            ) : null}
          </>
        )}
      </div>
      {standing.data?.settings.regime === 'non_us' ? <VatSection canEdit={canSign} /> : null}
      {canSign && standing.data?.settings.regime !== 'non_us' ? (
        isOpen ? (
          <TaxInterview onDone={() => setIsOpen(false)} />
        ) : (
          <Button variant="secondary" onClick={() => setIsOpen(true)}>
            {standing.data?.standing.form ? 'Replace your tax form' : 'Fill in your tax form'}
          </Button>
        )
      ) : null}
    </Card>
  );
}
