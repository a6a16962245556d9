/**
 * The generic CSV's column-mapping step: pick a saved preset, or map the file's own header columns to
 * the fields we need and save that mapping under a name (it is reused for the next file of that shape).
 * A saved mapping no longer wanted is deleted here, where it is chosen, after a confirmation.
 */
import { csvHeaderCells } from '@tunedrop/shared/csv';
import {
  CSV_MAPPING_FIELDS,
  type CsvMappingField,
  csvPresetSchema,
} from '@tunedrop/shared/schemas/royalties';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Field, Input, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { firstErrorMessage, useZodForm } from '../../../lib/use-zod-form';
import { useDeletePreset, usePresets, useSavePreset } from '../api/royalty-imports';

const FIELD_LABELS: Record<CsvMappingField, string> = {
  isrc: 'ISRC',
  upc: 'UPC / EAN',
  store: 'Store',
  country: 'Country',
  period: 'Sales period',
  usageType: 'Usage type',
  units: 'Units',
  amount: 'Amount (required)',
  currency: 'Currency',
  lineId: 'Line id',
};

const DELIMITERS = [
  { id: ',', label: 'Comma (,)' },
  { id: ';', label: 'Semicolon (;)' },
  { id: '\t', label: 'Tab' },
] as const;

const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** The header cells of the file's first line, read from its first 64 KB only. */
async function readHeader(file: File, delimiter: string): Promise<string[]> {
  return csvHeaderCells(await file.slice(0, 65536).text(), delimiter);
}

export function CsvMappingStep({
  file,
  presetId,
  onPresetChange,
}: {
  file: File | null;
  presetId: string | null;
  onPresetChange: (id: string | null) => void;
}) {
  const presets = usePresets();
  const savePreset = useSavePreset();
  const deletePreset = useDeletePreset();
  const [isDeleting, setIsDeleting] = useState(false);
  const chosen = presets.data?.find((preset) => preset.id === presetId) ?? null;
  const [headers, setHeaders] = useState<string[]>([]);
  const form = useZodForm(csvPresetSchema, {
    defaultValues: { name: '', delimiter: ',', currency: 'USD', mapping: { amount: '' } },
  });
  const delimiter = form.watch('delimiter') ?? ',';

  useEffect(() => {
    if (!file) {
      setHeaders([]);
      return;
    }
    let isCurrent = true;
    readHeader(file, delimiter).then(
      (cells) => isCurrent && setHeaders(cells),
      () => isCurrent && setHeaders([]),
    );
    return () => {
      isCurrent = false;
    };
  }, [file, delimiter]);

  const save = form.handleSubmit(
    (values) =>
      savePreset.mutate(values, {
        onSuccess: (preset) => {
          onPresetChange(preset.id);
          notify.success('Column mapping saved', preset.name);
        },
        onError: (error) => notify.error(errorMessage(error, 'The mapping could not be saved.')),
      }),
    (errors) => notify.error(firstErrorMessage(errors) ?? 'Check the mapping.'),
  );

  return (
    <fieldset className="space-y-4 rounded-xl border border-ink-700 p-4">
      <legend className="px-1 text-sm font-semibold text-white">Column mapping</legend>
      <Field id="royalty-preset" label="Saved mapping">
        <Select
          id="royalty-preset"
          value={presetId ?? ''}
          onChange={(event) => onPresetChange(event.target.value || null)}
        >
          <option value="">
            {presets.data?.length ? 'Choose a saved mapping…' : 'No saved mapping yet'}
          </option>
          {(presets.data ?? []).map((preset) => (
            <option key={preset.id} value={preset.id}>
              {preset.name}
            </option>
          ))}
        </Select>
      </Field>
      {chosen ? (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => setIsDeleting(true)}
          disabled={deletePreset.isPending}
        >
          Delete mapping
        </Button>
      ) : null}
      <ConfirmDialog
        open={isDeleting && chosen !== null}
        onOpenChange={(open) => {
          if (!open && !deletePreset.isPending) setIsDeleting(false);
        }}
        title="Delete saved mapping"
        description={`"${chosen?.name ?? ''}" will no longer be offered for new files. Reports already imported keep their lines.`}
        confirmLabel={deletePreset.isPending ? 'Deleting…' : 'Delete mapping'}
        isDestructive
        isPending={deletePreset.isPending}
        onConfirm={() => {
          if (!chosen) return;
          deletePreset.mutate(chosen.id, {
            onSuccess: () => {
              setIsDeleting(false);
              onPresetChange(null);
              notify.success('Saved mapping deleted', chosen.name);
            },
            onError: (error) => {
              setIsDeleting(false);
              notify.error(errorMessage(error, 'The mapping could not be deleted.'));
            },
          });
        }}
      />
      {presetId ? null : (
        <div className="space-y-3">
          <p className="text-sm text-zinc-400">
            {file
              ? headers.length > 0
                ? 'Or map this file’s columns and save the mapping under a name:'
                : 'No header row found with this delimiter: try another one, or type the column names.'
              : 'Choose the file first to pick its columns from a list.'}
          </p>
          <div className="grid gap-3 sm:grid-cols-3">
            <Field id="preset-name" label="Mapping name" error={form.formState.errors.name?.message}>
              <Input id="preset-name" autoComplete="off" {...form.register('name')} />
            </Field>
            <Field id="preset-delimiter" label="Delimiter">
              <Select id="preset-delimiter" {...form.register('delimiter')}>
                {DELIMITERS.map((item) => (
                  <option key={item.label} value={item.id}>
                    {item.label}
                  </option>
                ))}
              </Select>
            </Field>
            <Field
              id="preset-currency"
              label="Amount currency"
              error={form.formState.errors.currency?.message}
            >
              <Input id="preset-currency" maxLength={3} autoComplete="off" {...form.register('currency')} />
            </Field>
          </div>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
            {CSV_MAPPING_FIELDS.map((field) => {
              const id = `mapping-${field}`;
              const error = form.formState.errors.mapping?.[field]?.message;
              return (
                <Field key={field} id={id} label={FIELD_LABELS[field]} error={error}>
                  {headers.length > 0 ? (
                    <Select id={id} {...form.register(`mapping.${field}`, { setValueAs: blankToUndefined })}>
                      <option value="">Not in the file</option>
                      {headers.map((header) => (
                        <option key={header} value={header}>
                          {header}
                        </option>
                      ))}
                    </Select>
                  ) : (
                    <Input
                      id={id}
                      autoComplete="off"
                      placeholder="Column name"
                      {...form.register(`mapping.${field}`, { setValueAs: blankToUndefined })}
                    />
                  )}
                </Field>
              );
            })}
          </div>
          <Button variant="secondary" onClick={save} disabled={savePreset.isPending}>
            {savePreset.isPending ? 'Saving…' : 'Save mapping'}
          </Button>
        </div>
      )}
    </fieldset>
  );
}
