/** Admin Settings: the operator's brand (issue 27, record 203): name, logo, accent colour, addresses, platform figure. */
import { BRAND_TEXTS, type BrandView, brandSchema, DEFAULT_BRAND } from '@tunedrop/shared/schemas/brand';
import { ImageUp, Save, Trash2 } from 'lucide-react';
import { type ChangeEvent, useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { SettingsCard } from '../../../components/ui/settings-card';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useBrand, useRemoveLogo, useSaveBrand, useUploadLogo } from '../api/brand';
import { BrandWarnings } from './brand-warnings';

export function BrandCard() {
  const brand = useBrand();
  return (
    <SettingsCard
      title="Brand"
      description="The name, logo and colour the site, mails and statements show. The legal name and address statements are issued in are under Statement issuer below."
      query={brand}
      loadError="Failed to load the brand."
      testId="brand-settings"
      above={<BrandWarnings />}
    >
      {(data) => (
        <>
          <BrandForm brand={data} />
          <LogoField brand={data} />
        </>
      )}
    </SettingsCard>
  );
}

const FIELDS = ['productName', 'accentColor', 'supportEmail', 'privacyEmail', 'platformsClaim'] as const;
const valuesOf = (brand: BrandView) =>
  Object.fromEntries(FIELDS.map((field) => [field, brand[field]])) as Record<(typeof FIELDS)[number], string>;

function BrandForm({ brand }: { brand: BrandView }) {
  const save = useSaveBrand();
  const form = useZodForm(brandSchema, { defaultValues: valuesOf(brand) });
  const errors = form.formState.errors;
  useEffect(() => form.reset(valuesOf(brand)), [brand, form]);
  const accent = form.watch('accentColor');

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => notify.success(BRAND_TEXTS.brandSaved, 'The public pages show it on their next load.'),
      onError: (failure) => {
        for (const field of FIELDS) {
          const message = failure instanceof ApiError ? failure.fields?.[field] : undefined;
          if (message) form.setError(field, { message });
        }
        notify.error(errorMessage(failure, 'Failed to save the brand.'));
      },
    }),
  );

  const described = (field: (typeof FIELDS)[number]) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `brand-${field}-error` : `brand-${field}-hint`,
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
      <Field
        id="brand-productName"
        label="Product name"
        error={errors.productName?.message}
        hint={`Default: ${DEFAULT_BRAND.productName}`}
      >
        <Input
          id="brand-productName"
          autoComplete="organization"
          {...described('productName')}
          {...form.register('productName')}
        />
      </Field>
      <Field
        id="brand-accentColor"
        label="Accent colour"
        error={errors.accentColor?.message}
        hint={`As #rrggbb; white text on it must stay readable. Default: ${DEFAULT_BRAND.accentColor}`}
      >
        <div className="flex items-center gap-2">
          <span
            aria-hidden
            className="size-10 shrink-0 rounded-lg border border-ink-600"
            style={{ backgroundColor: /^#[0-9a-fA-F]{6}$/.test(accent ?? '') ? accent : 'transparent' }}
          />
          <Input
            id="brand-accentColor"
            spellCheck={false}
            {...described('accentColor')}
            {...form.register('accentColor')}
          />
        </div>
      </Field>
      <Field
        id="brand-supportEmail"
        label="Support email"
        error={errors.supportEmail?.message}
        hint="Empty: the server's SUPPORT_EMAIL."
      >
        <Input
          id="brand-supportEmail"
          type="email"
          {...described('supportEmail')}
          {...form.register('supportEmail')}
        />
      </Field>
      <Field
        id="brand-privacyEmail"
        label="Privacy email"
        error={errors.privacyEmail?.message}
        hint="Empty: the server's PRIVACY_EMAIL."
      >
        <Input
          id="brand-privacyEmail"
          type="email"
          {...described('privacyEmail')}
          {...form.register('privacyEmail')}
        />
      </Field>
      <Field
        id="brand-platformsClaim"
        label="Platforms claimed"
        error={errors.platformsClaim?.message}
        hint={`The figure the site states, such as ${DEFAULT_BRAND.platformsClaim}. A warning shows when the enabled targets serve fewer.`}
      >
        <Input
          id="brand-platformsClaim"
          {...described('platformsClaim')}
          {...form.register('platformsClaim')}
        />
      </Field>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={save.isPending || !form.formState.isDirty}>
          <Save aria-hidden className="size-4" /> Save brand
        </Button>
      </div>
    </form>
  );
}

function LogoField({ brand }: { brand: BrandView }) {
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    upload.mutate(file, {
      onSuccess: () => notify.success(BRAND_TEXTS.logoSaved),
      onError: (failure) => notify.error(errorMessage(failure, 'Failed to save the logo.')),
    });
  };
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-ink-700 pt-4">
      {brand.logoUrl ? (
        <img
          src={brand.logoUrl}
          alt="Current logo"
          className="size-12 rounded border border-ink-600 object-contain"
        />
      ) : (
        <p className="text-sm text-zinc-400">No logo: the site shows the music note.</p>
      )}
      <label className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-ink-600 px-3 py-2 text-sm text-zinc-100 hover:bg-ink-800 focus-within:outline-2 focus-within:outline-brand-400">
        <ImageUp aria-hidden className="size-4" /> {brand.logoUrl ? 'Replace logo' : 'Upload logo'}
        <input
          type="file"
          accept="image/png,image/jpeg"
          className="sr-only"
          onChange={onChange}
          disabled={upload.isPending}
        />
      </label>
      {brand.logoUrl ? (
        <Button
          type="button"
          variant="ghost"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(undefined, {
              onSuccess: () => notify.success(BRAND_TEXTS.logoRemoved),
              onError: (failure) => notify.error(errorMessage(failure, 'Failed to remove the logo.')),
            })
          }
        >
          <Trash2 aria-hidden className="size-4" /> Remove logo
        </Button>
      ) : null}
      <p className="w-full text-xs text-zinc-400">PNG or JPEG, at most 1 MB and 1000 by 1000 pixels.</p>
    </div>
  );
}
