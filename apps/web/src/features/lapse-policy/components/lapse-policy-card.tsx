/** Admin Settings: what happens to the releases of a lapsed account (issue 26 finding 8, record 196). */
import {
  LAPSE_POLICY_TEXTS,
  LAPSE_TAKEDOWN_MAX_DAYS,
  LAPSE_TAKEDOWN_MIN_DAYS,
  type LapsePolicy,
  lapsePolicySchema,
} from '@tunedrop/shared/schemas/lapse-policy';
import { Save } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FieldError, Input } from '../../../components/ui/input';
import { SettingsCard } from '../../../components/ui/settings-card';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useLapsePolicy, useSaveLapsePolicy } from '../api/lapse-policy';

export function LapsePolicyCard() {
  const policy = useLapsePolicy();
  return (
    <SettingsCard
      title={LAPSE_POLICY_TEXTS.title}
      description={LAPSE_POLICY_TEXTS.intro}
      query={policy}
      loadError="Failed to load the lapsed-account policy."
      testId="lapse-policy"
    >
      {(data) => <LapsePolicyForm policy={data} />}
    </SettingsCard>
  );
}

function LapsePolicyForm({ policy }: { policy: LapsePolicy }) {
  const save = useSaveLapsePolicy();
  const [mode, setMode] = useState(policy.mode);
  const [days, setDays] = useState(policy.mode === 'take_down' ? String(policy.days) : '30');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setMode(policy.mode);
    if (policy.mode === 'take_down') setDays(String(policy.days));
  }, [policy]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = lapsePolicySchema.safeParse(
      mode === 'keep_live' ? { mode } : { mode, days: days.trim() === '' ? Number.NaN : Number(days) },
    );
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the number of days.');
      return;
    }
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: () => notify.success(LAPSE_POLICY_TEXTS.saved),
      onError: (failure) => notify.error(errorMessage(failure, 'Failed to save the lapsed-account policy.')),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <fieldset className="space-y-2 text-sm text-zinc-200">
        <legend className="sr-only">{LAPSE_POLICY_TEXTS.title}</legend>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="lapse-policy-mode"
            checked={mode === 'keep_live'}
            onChange={() => setMode('keep_live')}
          />
          {LAPSE_POLICY_TEXTS.keepLive}
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="lapse-policy-mode"
              checked={mode === 'take_down'}
              onChange={() => setMode('take_down')}
            />
            {LAPSE_POLICY_TEXTS.takeDown}
          </label>
          <Input
            id="lapse-policy-days"
            type="number"
            inputMode="numeric"
            min={LAPSE_TAKEDOWN_MIN_DAYS}
            max={LAPSE_TAKEDOWN_MAX_DAYS}
            className="w-24"
            aria-label="Days after the lapse"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'lapse-policy-days-error' : 'lapse-policy-days-hint'}
            disabled={mode !== 'take_down'}
            value={days}
            onChange={(event) => setDays(event.target.value)}
          />
          <span>days</span>
        </div>
        <p id="lapse-policy-days-hint" className="text-xs text-zinc-400">
          The artist is mailed at the lapse, 7 days before the takedown and at the takedown; subscribing again
          before then cancels it.
        </p>
        <FieldError id="lapse-policy-days-error">{error}</FieldError>
      </fieldset>
      <Button type="submit" disabled={save.isPending}>
        <Save aria-hidden className="size-4" /> Save lapsed-account policy
      </Button>
    </form>
  );
}
