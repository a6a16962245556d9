/**
 * The operator's tax settings (issue 38): the regime (US withholding agent or non-US), what happens to a US
 * payee without a certified W-9 (block, or withhold 24%), and which lines are subject (US territory, or all).
 * Three keys of the settings table, saved together and audited as one settings section (record 191).
 */
import {
  DEFAULT_TAX_SETTINGS,
  NO_W9_POLICIES,
  TAX_REGIMES,
  TAX_SCOPES,
  type TaxSettings,
} from '@tunedrop/shared/schemas/tax';
import type { Db, DbOrTx } from '../../db/client';
import { settings } from '../../db/schema';
import { type AuditActor, auditSettings, readSettingValues } from '../audit';

export const TAX_REGIME_SETTING = 'TAX_REGIME';
export const TAX_NO_W9_POLICY_SETTING = 'TAX_NO_W9_POLICY';
export const TAX_SCOPE_SETTING = 'TAX_SCOPE';
const KEYS = [TAX_REGIME_SETTING, TAX_NO_W9_POLICY_SETTING, TAX_SCOPE_SETTING];

const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T =>
  list.includes(value as T) ? (value as T) : fallback;

export async function readTaxSettings(db: DbOrTx): Promise<TaxSettings> {
  const values = await readSettingValues(db, KEYS);
  return {
    regime: oneOf(TAX_REGIMES, values[TAX_REGIME_SETTING] ?? null, DEFAULT_TAX_SETTINGS.regime),
    noW9Policy: oneOf(
      NO_W9_POLICIES,
      values[TAX_NO_W9_POLICY_SETTING] ?? null,
      DEFAULT_TAX_SETTINGS.noW9Policy,
    ),
    scope: oneOf(TAX_SCOPES, values[TAX_SCOPE_SETTING] ?? null, DEFAULT_TAX_SETTINGS.scope),
  };
}

export async function saveTaxSettings(
  db: Db,
  input: TaxSettings,
  updatedBy: string | null,
  actor: AuditActor,
): Promise<TaxSettings> {
  const now = new Date();
  const next = {
    [TAX_REGIME_SETTING]: input.regime,
    [TAX_NO_W9_POLICY_SETTING]: input.noW9Policy,
    [TAX_SCOPE_SETTING]: input.scope,
  };
  await db.transaction(async (tx) => {
    const before = await readSettingValues(tx, KEYS);
    for (const [key, value] of Object.entries(next)) {
      await tx
        .insert(settings)
        .values({ key, value, updatedBy, updatedAt: now })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedBy, updatedAt: now } });
    }
    await auditSettings(tx, actor, 'Tax', before, next);
  });
  return readTaxSettings(db);
}
