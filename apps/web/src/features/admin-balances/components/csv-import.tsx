/**
 * Bulk update via CSV: template download, upload with the §5 checks (parser shared with the server),
 * 'Verify All' (one request, one query), 'Apply N Updates' (one transaction), counts and the preview.
 */
import {
  BALANCE_TEXTS,
  BULK_BALANCE_LIMITS,
  isCsvFileName,
  parseBalanceCsv,
} from '@tunedrop/shared/schemas/admin-balances';
import { Download, FileUp, ShieldCheck, Upload } from 'lucide-react';
import { type ChangeEvent, useRef, useState } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { notify } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { useApplyRows, useVerifyRows } from '../api/admin-balances';
import { CsvPreview, type PreviewRow } from './csv-preview';

function downloadTemplate() {
  const url = URL.createObjectURL(new Blob([BALANCE_TEXTS.template], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = BALANCE_TEXTS.templateFileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function CsvImport() {
  const [fileName, setFileName] = useState<string | null>(null);
  const [rows, setRows] = useState<PreviewRow[]>([]);
  const [parseErrors, setParseErrors] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [isConfirming, setIsConfirming] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const verify = useVerifyRows();
  const apply = useApplyRows();

  const counts = {
    verified: rows.filter((row) => row.status === 'verified').length,
    error: rows.filter((row) => row.status === 'error').length + parseErrors.length,
    pending: rows.filter((row) => row.status === 'pending').length,
    applied: rows.filter((row) => row.status === 'applied').length,
  };

  const reset = () => {
    setRows([]);
    setParseErrors([]);
    setFailure(null);
    setFileName(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    reset();
    if (!isCsvFileName(file.name)) {
      notify.error(BALANCE_TEXTS.invalidFile.description, BALANCE_TEXTS.invalidFile.title);
      return;
    }
    setFileName(file.name);
    try {
      if (file.size > BULK_BALANCE_LIMITS.maxFileBytes) throw new Error('The file is larger than 5 MB.');
      const result = parseBalanceCsv(await file.text());
      setParseErrors(result.errors);
      if (!result.ok) {
        setFailure(result.reason);
        notify.error('Failed to parse CSV file');
        return;
      }
      setRows(result.rows.map((row) => ({ ...row, status: 'pending' })));
      if (result.errors.length > 0) {
        const message = BALANCE_TEXTS.parsingErrors(result.errors.length);
        notify.error(message.description, message.title);
      } else {
        notify.success('CSV loaded', `${result.rows.length} rows ready to verify.`);
      }
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'The file could not be read.');
      notify.error('Failed to parse CSV file');
    }
  };

  const verifyAll = () => {
    const toVerify = rows.filter((row) => row.status !== 'applied');
    if (toVerify.length === 0) return;
    verify.mutate(
      {
        rows: toVerify.map((row) => ({
          line: row.line,
          identifier: row.identifier,
          newBalanceCents: row.newBalanceCents,
        })),
      },
      {
        onSuccess: ({ rows: verified }) => {
          const byLine = new Map(verified.map((row) => [row.line, row]));
          setRows((current) =>
            current.map((row): PreviewRow => {
              const result = byLine.get(row.line);
              if (!result) return row;
              return result.status === 'verified'
                ? {
                    ...row,
                    status: 'verified',
                    userId: result.userId,
                    userEmail: result.userEmail,
                    oldBalanceCents: result.oldBalanceCents,
                    error: undefined,
                  }
                : {
                    ...row,
                    status: 'error',
                    error: result.error,
                    userId: undefined,
                    oldBalanceCents: undefined,
                  };
            }),
          );
          const errors = verified.filter((row) => row.status === 'error').length;
          notify.success(
            'Verification complete',
            `${verified.length - errors} verified, ${errors} with errors.`,
          );
        },
        onError: (error) => {
          // One query checks every row, so a database failure marks each of them.
          const message =
            error instanceof ApiError && error.code === 'database_error'
              ? error.message
              : BALANCE_TEXTS.databaseError(error instanceof Error ? error.message : 'request failed');
          setRows((current) =>
            current.map((row) =>
              row.status === 'applied' ? row : { ...row, status: 'error', error: message },
            ),
          );
          notify.error('Failed to verify updates');
        },
      },
    );
  };

  const askApply = () => {
    if (counts.verified === 0) {
      notify.error(BALANCE_TEXTS.noValidUpdates.description, BALANCE_TEXTS.noValidUpdates.title);
      return;
    }
    setIsConfirming(true);
  };

  const applyVerified = () => {
    const verified = rows.filter(
      (row) => row.status === 'verified' && row.userId && row.oldBalanceCents !== undefined,
    );
    apply.mutate(
      {
        rows: verified.map((row) => ({
          line: row.line,
          userId: row.userId as string,
          expectedOldBalanceCents: row.oldBalanceCents as number,
          newBalanceCents: row.newBalanceCents,
        })),
      },
      {
        onSuccess: (result) => {
          const byLine = new Map(result.rows.map((row) => [row.line, row]));
          setRows((current) =>
            current.map((row): PreviewRow => {
              const outcome = byLine.get(row.line);
              if (!outcome) return row;
              return outcome.status === 'applied'
                ? { ...row, status: 'applied', oldBalanceCents: outcome.oldBalanceCents }
                : { ...row, status: 'error', error: outcome.error };
            }),
          );
          const skipped = result.rows.length - result.applied;
          if (skipped > 0) {
            notify.info(
              `${result.applied} updates applied`,
              `${skipped} balances changed since they were verified and were left alone; verify them again.`,
            );
          } else {
            notify.success('Updates applied', `${result.applied} balances updated.`);
          }
          setIsConfirming(false);
        },
        onError: () => {
          notify.error('Failed to apply updates');
          setIsConfirming(false);
        },
      },
    );
  };

  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-white">Bulk update via CSV</h2>
          <p className="text-sm text-zinc-400">
            Columns <code className="text-zinc-200">user_id_or_email</code> (email or user id) and{' '}
            <code className="text-zinc-200">new_balance</code>. A higher balance adds the difference to total
            earnings.
          </p>
        </div>
        <Button variant="outline" size="sm" onClick={downloadTemplate}>
          <Download aria-hidden className="size-4" /> Download Template
        </Button>
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <label className={`${buttonClass('secondary', 'md')} cursor-pointer`}>
          <FileUp aria-hidden className="size-4" /> Upload CSV
          <input
            ref={inputRef}
            type="file"
            accept=".csv,text/csv"
            className="sr-only"
            onChange={onFile}
            aria-label="Upload CSV"
          />
        </label>
        {fileName ? <span className="text-sm text-zinc-300">{fileName}</span> : null}
        {fileName ? (
          <Button variant="ghost" size="sm" onClick={reset}>
            Clear
          </Button>
        ) : null}
      </div>

      {failure ? (
        <p
          role="alert"
          className="rounded-lg border border-red-500/40 bg-red-500/10 p-3 text-sm text-red-200"
        >
          {failure}
        </p>
      ) : null}

      {rows.length > 0 || parseErrors.length > 0 ? (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Row counts">
          {[
            ['Verified', counts.verified, 'text-sky-300'],
            ['Errors', counts.error, 'text-red-300'],
            ['Pending', counts.pending, 'text-zinc-200'],
            ['Applied', counts.applied, 'text-emerald-300'],
          ].map(([label, value, tone]) => (
            <div key={label as string} className="rounded-lg bg-ink-800/60 px-3 py-2">
              <dt className="text-xs text-zinc-400">{label}</dt>
              <dd
                className={`text-xl font-semibold tabular-nums ${tone}`}
                data-testid={`csv-count-${String(label).toLowerCase()}`}
              >
                {value}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}

      {parseErrors.length > 0 ? (
        <details open={parseErrors.length <= 10} className="rounded-lg border border-red-500/30 p-3 text-sm">
          <summary className="cursor-pointer text-red-200">
            {parseErrors.length} line{parseErrors.length === 1 ? '' : 's'} skipped
          </summary>
          <ul className="mt-2 max-h-48 space-y-1 overflow-y-auto text-red-300" aria-label="CSV errors">
            {parseErrors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </details>
      ) : null}

      {rows.length > 0 ? (
        <>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={verifyAll} disabled={verify.isPending || apply.isPending}>
              {verify.isPending ? (
                <Spinner className="size-4" label="Verifying" />
              ) : (
                <ShieldCheck aria-hidden className="size-4" />
              )}
              Verify All
            </Button>
            <Button onClick={askApply} disabled={verify.isPending || apply.isPending}>
              {apply.isPending ? (
                <Spinner className="size-4" label="Applying" />
              ) : (
                <Upload aria-hidden className="size-4" />
              )}
              Apply {counts.verified} Updates
            </Button>
          </div>
          <CsvPreview rows={rows} />
        </>
      ) : null}

      <ConfirmDialog
        open={isConfirming}
        onOpenChange={setIsConfirming}
        title={`Apply ${counts.verified} Updates`}
        description={`The available balance of ${counts.verified} users will be set to the values in the file. A row whose balance changed since it was verified is left alone.`}
        confirmLabel={`Apply ${counts.verified} Updates`}
        onConfirm={applyVerified}
        isPending={apply.isPending}
      />
    </Card>
  );
}
