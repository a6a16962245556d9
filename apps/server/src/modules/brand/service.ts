/**
 * The operator's brand and plans (issue 27, record 203): stored as two JSON values of the settings table
 * (BRAND, PLANS) and a stored logo (BRAND_LOGO); the public pages, mails, statements and the ERN sender read
 * them; the warnings name what the site claims that the enabled delivery targets or settings do not back.
 */
import { createHash } from 'node:crypto';
import { PLANS, PLATFORM_IDS, type Plan, type PlatformId, platformName } from '@tunedrop/shared';
import {
  BRAND_LOGO_MAX_BYTES,
  BRAND_TEXTS,
  type Brand,
  type BrandView,
  type BrandWarning,
  brandSchema,
  claimedPlatformCount,
  DEFAULT_BRAND,
  DEFAULT_PLANS,
  DEFAULT_SITE_BRAND,
  type PlansSettings,
  type PlansView,
  plansSchema,
  type SiteBrand,
} from '@tunedrop/shared/schemas/brand';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import sharp from 'sharp';
import type { DbOrTx } from '../../db/client';
import { deliveryTargets, settings } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import { BRAND_SETTING } from '../../lib/brand-name';
import { AppError, validationError } from '../../lib/errors';
import { type AuditActor, auditSettings, readSettingValues } from '../audit';
import { readFeeSettings } from '../royalty-posting';

export { BRAND_SETTING };
export const PLANS_SETTING = 'PLANS';
/** JSON {key, contentType}: the stored logo's object key. */
export const BRAND_LOGO_SETTING = 'BRAND_LOGO';

type StoredLogo = { key: string; contentType: 'image/png' | 'image/jpeg' };

async function readJsonSettings(db: DbOrTx): Promise<Map<string, unknown>> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, [BRAND_SETTING, PLANS_SETTING, BRAND_LOGO_SETTING]));
  const found = new Map<string, unknown>();
  for (const row of rows) {
    if (!row.value) continue;
    try {
      found.set(row.key, JSON.parse(row.value));
    } catch {
      // A hand-edited value that is not JSON counts as unset.
    }
  }
  return found;
}

/** A stored value read through today's schema; anything it no longer accepts falls back to the default. */
function parsedOr<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  value: unknown,
  fallback: T,
): T {
  if (value === undefined) return fallback;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}

const isStoredLogo = (value: unknown): value is StoredLogo =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredLogo).key === 'string' &&
  ((value as StoredLogo).contentType === 'image/png' || (value as StoredLogo).contentType === 'image/jpeg');

/** The logo's public address: its object key's last part, so a new logo is a new URL (cached for a year). */
const logoUrlOf = (logo: StoredLogo | null) => (logo ? `/api/brand/logo/${logo.key.split('/').pop()}` : null);

export type BrandState = {
  brand: Brand;
  plans: PlansSettings;
  logo: StoredLogo | null;
  isBrandSet: boolean;
  isPlansSet: boolean;
};

export async function readBrandState(db: DbOrTx): Promise<BrandState> {
  const found = await readJsonSettings(db);
  const logo = found.get(BRAND_LOGO_SETTING);
  return {
    brand: parsedOr(brandSchema, found.get(BRAND_SETTING), DEFAULT_BRAND),
    plans: parsedOr(plansSchema, found.get(PLANS_SETTING), DEFAULT_PLANS),
    logo: isStoredLogo(logo) ? logo : null,
    isBrandSet: found.has(BRAND_SETTING),
    isPlansSet: found.has(PLANS_SETTING),
  };
}

export const readBrand = async (db: DbOrTx): Promise<Brand> => (await readBrandState(db)).brand;

export async function readBrandView(db: DbOrTx): Promise<BrandView> {
  const state = await readBrandState(db);
  return { ...state.brand, logoUrl: logoUrlOf(state.logo), isDefault: !state.isBrandSet };
}

export async function readPlansView(db: DbOrTx): Promise<PlansView> {
  const state = await readBrandState(db);
  return { ...state.plans, isDefault: !state.isPlansSet };
}

/** What every page of the web app reads (public values only: no price ids). */
export async function readSiteBrand(db: DbOrTx): Promise<SiteBrand> {
  const state = await readBrandState(db);
  const planOf = (plan: Plan) => ({
    priceCents: state.plans[plan].priceCents,
    // Unset plans render the spec's pricing page as built (its screen-reader labels included).
    features: state.isPlansSet ? state.plans[plan].features : null,
  });
  return {
    ...DEFAULT_SITE_BRAND,
    productName: state.brand.productName,
    accentColor: state.brand.accentColor,
    platformsClaim: state.brand.platformsClaim,
    logoUrl: logoUrlOf(state.logo),
    plans: { basic: planOf('basic'), pro: planOf('pro') },
    fees: await siteFees(db),
  };
}

/** The plans' fees the public pages state (issue 44); none while both are 0 (the spec's "100%"). */
async function siteFees(db: DbOrTx): Promise<SiteBrand['fees']> {
  const fees = await readFeeSettings(db);
  if (Number(fees.basic) === 0 && Number(fees.pro) === 0) return null;
  return { basic: fees.basic, pro: fees.pro };
}

async function saveJsonSetting(
  db: DbOrTx,
  key: string,
  section: string,
  value: unknown,
  updatedBy: string,
  actor: AuditActor,
): Promise<void> {
  const now = new Date();
  const json = JSON.stringify(value);
  await db.transaction(async (tx) => {
    const before = await readSettingValues(tx, [key]);
    await tx
      .insert(settings)
      .values({ key, value: json, updatedBy, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value: json, updatedBy, updatedAt: now } });
    // Audited field by field (record 191): the JSON's changed fields, not one opaque string.
    const was = before[key] ? (JSON.parse(before[key]) as Record<string, unknown>) : {};
    await auditSettings(tx, actor, section, was, value as Record<string, unknown>);
  });
}

export async function saveBrand(
  db: DbOrTx,
  input: Brand,
  updatedBy: string,
  actor: AuditActor,
): Promise<BrandView> {
  await saveJsonSetting(db, BRAND_SETTING, 'Brand', input, updatedBy, actor);
  return readBrandView(db);
}

export async function savePlans(
  db: DbOrTx,
  input: PlansSettings,
  updatedBy: string,
  actor: AuditActor,
): Promise<PlansView> {
  await saveJsonSetting(db, PLANS_SETTING, 'Plans', input, updatedBy, actor);
  return readPlansView(db);
}

/** Checks the logo by content (PNG or JPEG, at most 1 MB and 1000 px a side) and stores it under a new key. */
export async function saveLogo(
  db: DbOrTx,
  storage: Storage,
  bytes: Buffer,
  updatedBy: string,
  actor: AuditActor,
): Promise<BrandView> {
  if (bytes.length > BRAND_LOGO_MAX_BYTES)
    throw validationError(BRAND_TEXTS.logoTooLarge, { logo: BRAND_TEXTS.logoTooLarge });
  let format: string | undefined;
  let width = 0;
  let height = 0;
  try {
    const metadata = await sharp(bytes).metadata();
    format = metadata.format;
    width = metadata.width ?? 0;
    height = metadata.height ?? 0;
  } catch {
    format = undefined;
  }
  if (format !== 'png' && format !== 'jpeg')
    throw validationError(BRAND_TEXTS.logoInvalid, { logo: BRAND_TEXTS.logoInvalid });
  if (width > 1000 || height > 1000)
    throw validationError(BRAND_TEXTS.logoTooBig, { logo: BRAND_TEXTS.logoTooBig });
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const logo: StoredLogo = {
    key: `brand/logo-${hash}.${format === 'png' ? 'png' : 'jpg'}`,
    contentType: format === 'png' ? 'image/png' : 'image/jpeg',
  };
  await storage.putBuffer(logo.key, bytes, logo.contentType);
  await saveJsonSetting(db, BRAND_LOGO_SETTING, 'Brand logo', logo, updatedBy, actor);
  return readBrandView(db);
}

export async function removeLogo(db: DbOrTx, actor: AuditActor): Promise<BrandView> {
  await db.transaction(async (tx) => {
    const before = await readSettingValues(tx, [BRAND_LOGO_SETTING]);
    if (!before[BRAND_LOGO_SETTING]) return;
    await tx.delete(settings).where(eq(settings.key, BRAND_LOGO_SETTING));
    await auditSettings(tx, actor, 'Brand logo', { logo: before[BRAND_LOGO_SETTING] }, { logo: null });
  });
  return readBrandView(db);
}

/** The stored logo named `name` (the last part of its key), or a 404. */
export async function readLogo(db: DbOrTx, name: string): Promise<StoredLogo> {
  const { logo } = await readBrandState(db);
  if (!logo || logo.key.split('/').pop() !== name) throw new AppError('not_found', 'Not found', 404);
  return logo;
}

/** Platforms the enabled targets serve: a target with no list serves every platform. */
async function servedPlatforms(
  db: DbOrTx,
): Promise<{ platforms: Set<PlatformId>; hasYoutubeTarget: boolean }> {
  const targets = await db
    .select({ platforms: deliveryTargets.platforms, profile: deliveryTargets.profile })
    .from(deliveryTargets)
    .where(and(isNull(deliveryTargets.deletedAt), eq(deliveryTargets.enabled, true)));
  const platforms = new Set<PlatformId>();
  for (const target of targets) for (const id of target.platforms ?? PLATFORM_IDS) platforms.add(id);
  return { platforms, hasYoutubeTarget: targets.some((target) => target.profile === 'youtube') };
}

const CONTENT_ID_CLAIM = /content\s*id/i;
const CODES_CLAIM = /\b(isrc|upc)\b/i;

/**
 * What the public pages claim that this server's setup does not back: more platforms than the enabled
 * targets serve (the site's figure, and the release form's list of every platform), or a plan feature
 * (Content ID, custom codes) the operator has not configured.
 */
export async function readBrandWarnings(db: DbOrTx): Promise<BrandWarning[]> {
  const { brand, plans } = await readBrandState(db);
  const { platforms, hasYoutubeTarget } = await servedPlatforms(db);
  const served = platforms.size;
  const servedText =
    served === 0
      ? 'no enabled delivery target serves any platform'
      : `the enabled delivery targets serve ${served} (${[...platforms].map(platformName).join(', ')})`;
  const warnings: BrandWarning[] = [];
  const siteClaim = `${brand.platformsClaim} platforms`;
  if (claimedPlatformCount(brand.platformsClaim) > served) {
    warnings.push({ claim: siteClaim, message: `The site claims "${siteClaim}", but ${servedText}.` });
  }
  const formClaim = `${PLATFORM_IDS.length} platforms`;
  if (PLATFORM_IDS.length > served && formClaim !== siteClaim) {
    warnings.push({
      claim: formClaim,
      message: `The release form offers "${formClaim}", but ${servedText}.`,
    });
  }
  const codes = await readSettingValues(db, ['ISRC_REGISTRANT', 'UPC_PREFIX']);
  const seen = new Set<string>();
  for (const plan of PLANS) {
    for (const feature of plans[plan].features) {
      if (!feature.isIncluded || seen.has(feature.text)) continue;
      if (CONTENT_ID_CLAIM.test(feature.text) && !hasYoutubeTarget) {
        seen.add(feature.text);
        warnings.push({
          claim: feature.text,
          message: `The pricing page promises "${feature.text}", but no enabled delivery target has the YouTube profile.`,
        });
      }
      if (CODES_CLAIM.test(feature.text) && (!codes.ISRC_REGISTRANT || !codes.UPC_PREFIX)) {
        seen.add(feature.text);
        warnings.push({
          claim: feature.text,
          message: `The pricing page promises "${feature.text}", but the ISRC registrant or the UPC prefix is not set.`,
        });
      }
    }
  }
  return warnings;
}
