/**
 * A label contract's form (issue 39, record 285): the parties by email, the label's releases to cover,
 * dates, an optional default rate and the ordered terms (the first that matches a sale applies). Checked
 * by the shared schema here and again by the server, whose field errors land on their fields.
 */
import {
  CONTRACT_BASES,
  CONTRACT_BASIS_LABELS,
  CONTRACT_CHANNEL_LABELS,
  CONTRACT_CHANNELS,
  CONTRACT_TEXTS,
  type ContractInput,
  type ContractView,
  contractInputSchema,
} from '@tunedrop/shared/schemas/contracts';
import { ArrowUp, Plus, Save, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { type Path, useFieldArray } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Field, FieldError, Input, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useLabelReleases, useSaveContract } from '../api/contracts';

const EMPTY_TERM: ContractInput['terms'] extends (infer T)[] | undefined ? T : never = {
  territories: [],
  channel: 'stream',
  store: null,
  startsOn: null,
  endsOn: null,
  basis: 'net',
  rate: '',
  reservePercent: '',
  reserveSchedule: '',
};

function initialValues(contract: ContractView | null): ContractInput {
  if (!contract) {
    return {
      name: '',
      labelEmail: '',
      payeeEmail: '',
      startsOn: new Date().toISOString().slice(0, 10),
      endsOn: null,
      defaultBasis: null,
      defaultRate: null,
      releaseIds: [],
      terms: [EMPTY_TERM],
    };
  }
  return {
    name: contract.name,
    labelEmail: contract.label.email,
    payeeEmail: contract.payee.email,
    startsOn: contract.startsOn,
    endsOn: contract.endsOn,
    defaultBasis: contract.defaultBasis,
    defaultRate: contract.defaultRate,
    releaseIds: contract.releases.map((release) => release.id),
    // The reserve as typed: empty when none, the schedule as "50/50".
    terms: contract.terms.map((term) => ({
      ...term,
      reservePercent: term.reservePercent === '0' ? '' : term.reservePercent,
      reserveSchedule: term.reserveSchedule.join('/'),
    })),
  };
}

const emptyToNull = (value: unknown) => (value === '' ? null : value);
const territoryList = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(/[\s,]+/)
        .map((code) => code.trim())
        .filter(Boolean)
    : value;

export function ContractForm({ contract, onDone }: { contract: ContractView | null; onDone: () => void }) {
  const save = useSaveContract();
  const form = useZodForm(contractInputSchema, { defaultValues: initialValues(contract) });
  const terms = useFieldArray({ control: form.control, name: 'terms' });
  const [releasesOf, setReleasesOf] = useState<string | null>(contract?.label.email ?? null);
  const releases = useLabelReleases(releasesOf);
  const chosen = form.watch('releaseIds');
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      { id: contract?.id ?? null, json: values },
      {
        onSuccess: () => {
          notify.success(contract ? CONTRACT_TEXTS.saved : CONTRACT_TEXTS.created);
          onDone();
        },
        onError: (failure) => {
          const fields = failure instanceof ApiError ? (failure.fields ?? {}) : {};
          for (const [path, message] of Object.entries(fields)) {
            form.setError(path as Path<ContractInput>, { message });
          }
          notify.error(errorMessage(failure, 'Failed to save the contract.'));
        },
      },
    ),
  );

  const toggleRelease = (id: string, on: boolean) => {
    const next = on ? [...chosen, id] : chosen.filter((releaseId) => releaseId !== id);
    form.setValue('releaseIds', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6" aria-label="Contract">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="contract-name" label="Contract name" error={errors.name?.message}>
          <Input id="contract-name" autoComplete="off" {...form.register('name')} />
        </Field>
        <Field id="contract-payee" label="Artist (account email)" error={errors.payeeEmail?.message}>
          <Input id="contract-payee" type="email" autoComplete="off" {...form.register('payeeEmail')} />
        </Field>
        <Field id="contract-starts" label="Starts on" error={errors.startsOn?.message}>
          <Input id="contract-starts" type="date" {...form.register('startsOn')} />
        </Field>
        <Field id="contract-ends" label="Ends on (optional)" error={errors.endsOn?.message}>
          <Input id="contract-ends" type="date" {...form.register('endsOn', { setValueAs: emptyToNull })} />
        </Field>
      </div>

      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-zinc-100">Label and releases</legend>
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-64 flex-1">
            <Field id="contract-label" label="Label (account email)" error={errors.labelEmail?.message}>
              <Input id="contract-label" type="email" autoComplete="off" {...form.register('labelEmail')} />
            </Field>
          </div>
          <Button
            type="button"
            variant="outline"
            onClick={() => setReleasesOf(form.getValues('labelEmail').trim().toLowerCase() || null)}
          >
            Show the label’s releases
          </Button>
        </div>
        {releases.isError ? (
          <p role="alert" className="text-sm text-red-300">
            {errorMessage(releases.error, 'Failed to load the releases.')}
          </p>
        ) : null}
        {releases.data ? (
          releases.data.releases.length === 0 ? (
            <p className="text-sm text-zinc-400">This account has no releases.</p>
          ) : (
            <ul className="grid gap-2 sm:grid-cols-2" aria-label="Releases">
              {releases.data.releases.map((release) => {
                const elsewhere =
                  release.contract && release.contract.id !== contract?.id ? release.contract : null;
                return (
                  <li key={release.id}>
                    <label className="flex items-start gap-2 text-sm text-zinc-200">
                      <input
                        type="checkbox"
                        className="mt-1"
                        checked={chosen.includes(release.id)}
                        disabled={elsewhere !== null}
                        onChange={(event) => toggleRelease(release.id, event.target.checked)}
                      />
                      <span>
                        {release.title}
                        {elsewhere ? (
                          <span className="block text-xs text-zinc-400">In “{elsewhere.name}”</span>
                        ) : null}
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )
        ) : null}
        <FieldError id="contract-releases-error">{errors.releaseIds?.message}</FieldError>
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-zinc-100">Terms, in order</legend>
        <p className="text-xs text-zinc-400">
          The first term that matches a sale sets its basis and rate. Leave territories, channel or store
          empty to match any.
        </p>
        <ol className="space-y-3">
          {terms.fields.map((field, index) => {
            const termErrors = errors.terms?.[index];
            const id = (name: string) => `term-${index}-${name}`;
            return (
              <li key={field.id} className="rounded-lg border border-ink-800 p-3" data-testid="contract-term">
                <p className="mb-2 text-sm font-medium text-zinc-200">Term {index + 1}</p>
                <div className="grid gap-3 sm:grid-cols-3">
                  <Field id={id('channel')} label="Channel">
                    <Select
                      id={id('channel')}
                      {...form.register(`terms.${index}.channel`, { setValueAs: emptyToNull })}
                    >
                      <option value="">Any channel</option>
                      {CONTRACT_CHANNELS.map((channel) => (
                        <option key={channel} value={channel}>
                          {CONTRACT_CHANNEL_LABELS[channel]}
                        </option>
                      ))}
                    </Select>
                  </Field>
                  <Field
                    id={id('territories')}
                    label="Territories (optional)"
                    hint="Country codes, such as GB, IE"
                    error={termErrors?.territories?.message ?? firstItemError(termErrors?.territories)}
                  >
                    <Input
                      id={id('territories')}
                      autoComplete="off"
                      {...form.register(`terms.${index}.territories`, { setValueAs: territoryList })}
                    />
                  </Field>
                  <Field id={id('store')} label="Store (optional)" error={termErrors?.store?.message}>
                    <Input
                      id={id('store')}
                      autoComplete="off"
                      {...form.register(`terms.${index}.store`, { setValueAs: emptyToNull })}
                    />
                  </Field>
                  <Field id={id('basis')} label="Basis">
                    <Select id={id('basis')} {...form.register(`terms.${index}.basis`)}>
                      {CONTRACT_BASES.map((basis) => (
                        <option key={basis} value={basis}>
                          {CONTRACT_BASIS_LABELS[basis]}
                        </option>
                      ))}
                    </Select>
                  </Field>
                  <Field id={id('rate')} label="Rate (%)" error={termErrors?.rate?.message}>
                    <Input
                      id={id('rate')}
                      inputMode="decimal"
                      autoComplete="off"
                      {...form.register(`terms.${index}.rate`)}
                    />
                  </Field>
                  <Field
                    id={id('reserve')}
                    label="Reserve (%, optional)"
                    hint="Held back from sales, never from returns"
                    error={termErrors?.reservePercent?.message}
                  >
                    <Input
                      id={id('reserve')}
                      inputMode="decimal"
                      autoComplete="off"
                      {...form.register(`terms.${index}.reservePercent`)}
                    />
                  </Field>
                  <Field
                    id={id('reserve-schedule')}
                    label="Reserve released"
                    hint="Percent in each following month, such as 50/50"
                    error={termErrors?.reserveSchedule?.message}
                  >
                    <Input
                      id={id('reserve-schedule')}
                      autoComplete="off"
                      {...form.register(`terms.${index}.reserveSchedule`)}
                    />
                  </Field>
                  <div className="flex items-end gap-2">
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      disabled={index === 0}
                      onClick={() => terms.swap(index, index - 1)}
                      aria-label={`Move term ${index + 1} up`}
                    >
                      <ArrowUp aria-hidden className="size-4" />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      onClick={() => terms.remove(index)}
                      aria-label={`Remove term ${index + 1}`}
                    >
                      <Trash2 aria-hidden className="size-4" />
                    </Button>
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
        <FieldError id="contract-terms-error">
          {errors.terms?.message ?? errors.terms?.root?.message}
        </FieldError>
        <Button type="button" variant="outline" size="sm" onClick={() => terms.append(EMPTY_TERM)}>
          <Plus aria-hidden className="size-4" /> Add a term
        </Button>
      </fieldset>

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-zinc-100">When no term matches</legend>
        <Field id="contract-default-basis" label="Default basis">
          <Select id="contract-default-basis" {...form.register('defaultBasis', { setValueAs: emptyToNull })}>
            <option value="">No default: such a sale stops the posting</option>
            {CONTRACT_BASES.map((basis) => (
              <option key={basis} value={basis}>
                {CONTRACT_BASIS_LABELS[basis]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="contract-default-rate" label="Default rate (%)" error={errors.defaultRate?.message}>
          <Input
            id="contract-default-rate"
            inputMode="decimal"
            autoComplete="off"
            {...form.register('defaultRate', { setValueAs: emptyToNull })}
          />
        </Field>
      </fieldset>

      <div className="flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          <Save aria-hidden className="size-4" /> Save contract
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** A territory list's first wrong code, as the schema words it. */
function firstItemError(errors: unknown): string | undefined {
  if (!Array.isArray(errors)) return undefined;
  for (const item of errors) {
    if (item && typeof item === 'object' && 'message' in item && typeof item.message === 'string')
      return item.message;
  }
  return undefined;
}
