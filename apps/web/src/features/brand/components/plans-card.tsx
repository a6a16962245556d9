/**
 * Admin Settings: each plan's price, the payment provider's price id and the pricing page's features
 * (issue 27, record 203). A feature line that starts with "-" shows as not included.
 */
import { PLAN_DETAILS, PLANS, type Plan } from '@tunedrop/shared';
import { centsToDecimal, parseAmountToCents } from '@tunedrop/shared/money';
import { BRAND_TEXTS, type PlanFeature, type PlansView, plansSchema } from '@tunedrop/shared/schemas/brand';
import { Save } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input, Textarea } from '../../../components/ui/input';
import { SettingsCard } from '../../../components/ui/settings-card';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { usePlans, useSavePlans } from '../api/brand';

export function PlansCard() {
  const plans = usePlans();
  return (
    <SettingsCard
      title="Plans"
      description="What the pricing page sells. A price id is the payment provider's; empty, the server's STRIPE_PRICE_BASIC or STRIPE_PRICE_PRO. Keep the price shown equal to the provider's price."
      query={plans}
      loadError="Failed to load the plans."
      testId="plan-settings"
    >
      {(data) => <PlansForm plans={data} />}
    </SettingsCard>
  );
}

type PlanDraft = { price: string; priceId: string; features: string };

const featuresText = (features: PlanFeature[]) =>
  features.map((feature) => (feature.isIncluded ? feature.text : `- ${feature.text}`)).join('\n');
const featuresOf = (text: string): PlanFeature[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) =>
      line.startsWith('-')
        ? { text: line.slice(1).trim(), isIncluded: false }
        : { text: line, isIncluded: true },
    );
const draftsOf = (plans: PlansView): Record<Plan, PlanDraft> =>
  Object.fromEntries(
    PLANS.map((plan) => [
      plan,
      {
        price: centsToDecimal(plans[plan].priceCents),
        priceId: plans[plan].priceId,
        features: featuresText(plans[plan].features),
      },
    ]),
  ) as Record<Plan, PlanDraft>;

function PlansForm({ plans }: { plans: PlansView }) {
  const save = useSavePlans();
  const [drafts, setDrafts] = useState(() => draftsOf(plans));
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => setDrafts(draftsOf(plans)), [plans]);

  const change = (plan: Plan, field: keyof PlanDraft, value: string) =>
    setDrafts((current) => ({ ...current, [plan]: { ...current[plan], [field]: value } }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = Object.fromEntries(
      PLANS.map((plan) => {
        const price = drafts[plan].price.trim().replace(/^\$/, '');
        return [
          plan,
          {
            priceCents: /^\d+(\.\d{1,2})?$/.test(price)
              ? (parseAmountToCents(price) ?? Number.NaN)
              : Number.NaN,
            priceId: drafts[plan].priceId,
            features: featuresOf(drafts[plan].features),
          },
        ];
      }),
    );
    const parsed = plansSchema.safeParse(input);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const [plan, field] = issue.path;
        const key = `${String(plan)}.${String(field)}`;
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () =>
        notify.success(BRAND_TEXTS.plansSaved, 'The pricing page shows them on its next load.'),
      onError: (failure) => {
        if (failure instanceof ApiError && failure.fields) setErrors(failure.fields);
        notify.error(errorMessage(failure, 'Failed to save the plans.'));
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <div className="grid gap-6 md:grid-cols-2">
        {PLANS.map((plan) => {
          const id = (field: string) => `plan-${plan}-${field}`;
          const error = (field: string) => errors[`${plan}.${field}`];
          const aria = (field: string) => ({
            'aria-invalid': error(field) ? true : undefined,
            'aria-describedby': error(field) ? `${id(field)}-error` : undefined,
          });
          return (
            <fieldset key={plan} className="space-y-3 rounded-xl border border-ink-700 p-4">
              <legend className="px-1 font-semibold text-white">{PLAN_DETAILS[plan].name}</legend>
              <Field
                id={id('price')}
                label={`${PLAN_DETAILS[plan].name} price per month ($)`}
                error={error('priceCents')}
              >
                <Input
                  id={id('price')}
                  inputMode="decimal"
                  value={drafts[plan].price}
                  onChange={(event) => change(plan, 'price', event.target.value)}
                  {...aria('priceCents')}
                />
              </Field>
              <Field
                id={id('priceId')}
                label={`${PLAN_DETAILS[plan].name} price id`}
                error={error('priceId')}
              >
                <Input
                  id={id('priceId')}
                  spellCheck={false}
                  placeholder="price_…"
                  value={drafts[plan].priceId}
                  onChange={(event) => change(plan, 'priceId', event.target.value)}
                  {...aria('priceId')}
                />
              </Field>
              <Field
                id={id('features')}
                label={`${PLAN_DETAILS[plan].name} features`}
                error={error('features')}
                hint='One per line; a line starting with "-" shows as not included.'
              >
                <Textarea
                  id={id('features')}
                  rows={8}
                  value={drafts[plan].features}
                  onChange={(event) => change(plan, 'features', event.target.value)}
                  {...aria('features')}
                />
              </Field>
            </fieldset>
          );
        })}
      </div>
      <Button type="submit" disabled={save.isPending}>
        <Save aria-hidden className="size-4" /> Save plans
      </Button>
    </form>
  );
}
