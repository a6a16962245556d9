/**
 * Upload of one statement file: drag and drop onto the zone or choose it with the keyboard (the zone is
 * the label of a real file input), the format, currency and exchange rate, a generic CSV's column mapping,
 * and a progress bar fed by the upload's own progress events.
 */

import { useQueryClient } from '@tanstack/react-query';
import {
  ROYALTY_FORMATS,
  type RoyaltyFormat,
  royaltyImportQuerySchema,
} from '@tunedrop/shared/schemas/royalties';
import { ROYALTY_CHECK_TEXTS } from '@tunedrop/shared/schemas/royalty-checks';
import { FileUp, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { Field, Input, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api';
import { formatBytes } from '../../../lib/format';
import { useZodForm } from '../../../lib/use-zod-form';
import { useFileCurrency } from '../api/report-checks';
import { royaltyKeys, uploadStatement } from '../api/royalty-imports';
import { CsvMappingStep } from './csv-mapping-step';

export const FORMAT_LABELS: Record<RoyaltyFormat, string> = {
  auto: 'Detect from the file',
  dsr: 'DDEX DSR (Basic Audio, TSV or .gz)',
  distrokid: 'DistroKid statement',
  tunecore: 'TuneCore sales report',
  fuga: 'FUGA trend/sales report',
  youtube: 'YouTube Content ID report (ad revenue per video)',
  csv: 'Generic CSV (column mapping)',
};

const optionsSchema = royaltyImportQuerySchema.pick({ format: true, rate: true, currency: true });
const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);

export function UploadCard() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [isDragging, setIsDragging] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [presetId, setPresetId] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const form = useZodForm(optionsSchema, { defaultValues: { format: 'auto' } });
  const format = form.watch('format') ?? 'auto';
  const isUploading = progress !== null;
  // The file says its currency first (record 187): a non-USD report is asked for its rate here.
  const typedCurrency = (form.watch('currency') ?? '').toUpperCase();
  const inspected = useFileCurrency(file, format, format === 'csv' ? presetId : null);
  const fileCurrency = inspected.data?.currency ?? null;
  const currency = fileCurrency ?? (typedCurrency.length === 3 ? typedCurrency : null);
  const needsRate = currency !== null && currency !== 'USD';

  const choose = (next: File | null | undefined) => {
    if (!next) return;
    setFile(next);
    setUploadError(null);
    setPresetId(null);
  };

  const submit = form.handleSubmit(async (values) => {
    if (!file) {
      setUploadError('Choose a statement file first.');
      return;
    }
    if (values.format === 'csv' && !presetId) {
      setUploadError('Choose or save a column mapping for this CSV first.');
      return;
    }
    if (needsRate && !values.rate) {
      form.setError('rate', { message: ROYALTY_CHECK_TEXTS.needsRate(currency) });
      form.setFocus('rate');
      return;
    }
    setUploadError(null);
    setProgress(0);
    abort.current = new AbortController();
    try {
      const accepted = await uploadStatement({
        file,
        format: values.format,
        rate: values.rate,
        currency: values.currency,
        preset: values.format === 'csv' ? (presetId ?? undefined) : undefined,
        onProgress: setProgress,
        signal: abort.current.signal,
      });
      await queryClient.invalidateQueries({ queryKey: royaltyKeys.all });
      // The file is stored; a job reads it and the import page shows its progress (decision 161).
      notify.success('Statement uploaded', `${file.name} is being read.`);
      navigate(paths.adminRoyaltyImport(accepted.id));
    } catch (error) {
      const message = errorMessage(error, 'The statement could not be imported.');
      setUploadError(message);
      notify.error(message);
    } finally {
      setProgress(null);
      abort.current = null;
    }
  });

  return (
    <Card>
      <h2 className="text-lg font-semibold text-white">Import a statement</h2>
      <p className="mt-1 text-sm text-zinc-400">
        A DDEX DSR file (plain or gzip), a DistroKid, TuneCore or FUGA statement, or any CSV with a saved
        column mapping. Lines are matched by ISRC, then UPC; nothing is paid until you post the report.
      </p>
      <form className="mt-4 space-y-4" onSubmit={submit} noValidate>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target only; keyboard users reach the file input inside. */}
        <div
          onDragOver={(event) => {
            event.preventDefault();
            setIsDragging(true);
          }}
          onDragLeave={() => setIsDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setIsDragging(false);
            choose(event.dataTransfer.files[0]);
          }}
          data-testid="statement-dropzone"
        >
          <input
            ref={inputRef}
            id="statement-file"
            type="file"
            className="peer sr-only"
            accept=".tsv,.txt,.csv,.gz,text/tab-separated-values,text/csv,application/gzip"
            disabled={isUploading}
            onChange={(event) => {
              choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <label
            htmlFor="statement-file"
            className={cn(
              'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors peer-focus-visible:border-brand-400 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-400',
              isDragging ? 'border-brand-400 bg-brand-600/10' : 'border-ink-700 hover:border-ink-600',
            )}
          >
            <FileUp aria-hidden className="size-8 text-brand-400" />
            <span className="font-medium text-white">
              {file ? 'Choose another file' : 'Drop a statement file here, or choose one'}
            </span>
            <span className="text-xs text-zinc-400">TSV, CSV or .gz, up to 4 GB</span>
          </label>
        </div>
        {file ? (
          <div className="flex items-center justify-between gap-3 rounded-lg border border-ink-700 px-3 py-2 text-sm">
            <span className="min-w-0 truncate text-zinc-100" data-testid="chosen-file">
              {file.name} <span className="text-zinc-400">({formatBytes(file.size)})</span>
            </span>
            <Button
              variant="ghost"
              size="sm"
              aria-label="Remove the chosen file"
              disabled={isUploading}
              onClick={() => setFile(null)}
            >
              <X aria-hidden className="size-4" />
            </Button>
          </div>
        ) : null}

        {file && fileCurrency ? (
          <p className="text-sm text-zinc-200" data-testid="file-currency" aria-live="polite">
            The file is in <span className="font-semibold">{fileCurrency}</span>.
            {needsRate ? ` Give its exchange rate to USD (1 ${fileCurrency} = ? USD).` : ''}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-3">
          <Field id="royalty-format" label="Format" error={form.formState.errors.format?.message}>
            <Select id="royalty-format" {...form.register('format')} disabled={isUploading}>
              {ROYALTY_FORMATS.map((item) => (
                <option key={item} value={item}>
                  {FORMAT_LABELS[item]}
                </option>
              ))}
            </Select>
          </Field>
          <Field
            id="royalty-currency"
            label="Currency"
            hint="When the file does not say (ISO code, e.g. EUR)"
            error={form.formState.errors.currency?.message}
          >
            <Input
              id="royalty-currency"
              maxLength={3}
              autoComplete="off"
              placeholder="From the file"
              disabled={isUploading}
              aria-invalid={Boolean(form.formState.errors.currency)}
              aria-describedby="royalty-currency-error"
              {...form.register('currency', { setValueAs: blankToUndefined })}
            />
          </Field>
          <Field
            id="royalty-rate"
            label={needsRate ? `Exchange rate to USD (1 ${currency} = ? USD)` : 'Exchange rate to USD'}
            hint="1 unit of the report currency in USD; needed for non-USD reports"
            error={form.formState.errors.rate?.message}
          >
            <Input
              id="royalty-rate"
              inputMode="decimal"
              autoComplete="off"
              placeholder="e.g. 1.0825"
              disabled={isUploading}
              aria-invalid={Boolean(form.formState.errors.rate)}
              aria-describedby="royalty-rate-error"
              {...form.register('rate', { setValueAs: blankToUndefined })}
            />
          </Field>
        </div>

        {format === 'csv' ? (
          <CsvMappingStep file={file} presetId={presetId} onPresetChange={setPresetId} />
        ) : null}

        {isUploading ? (
          <div className="space-y-1">
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round((progress ?? 0) * 100)}
              className="h-2 overflow-hidden rounded-full bg-ink-700"
            >
              <div
                className="h-full bg-brand-500 transition-[width]"
                style={{ width: `${Math.round((progress ?? 0) * 100)}%` }}
              />
            </div>
            <p className="text-xs text-zinc-400" aria-live="polite">
              {(progress ?? 0) < 1
                ? `Uploading… ${Math.round((progress ?? 0) * 100)}%`
                : 'Uploaded; reading and matching the lines…'}
            </p>
          </div>
        ) : null}
        {uploadError ? (
          <p role="alert" className="text-sm text-red-400">
            {uploadError}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={isUploading}>
            {isUploading ? 'Importing…' : 'Import statement'}
          </Button>
          {isUploading ? (
            <Button variant="outline" onClick={() => abort.current?.abort()}>
              Cancel upload
            </Button>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
