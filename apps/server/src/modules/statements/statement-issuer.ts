/**
 * Who issues royalty statements (record 190): the operator's legal name and postal address, two keys of the
 * settings table set on /admin/settings. Without them statements carry the product's name (the brand's, record
 * 203) and no address.
 */
import type { StatementIssuerInput, StatementIssuerView } from '@tunedrop/shared/schemas/royalty-statements';
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { settings } from '../../db/schema';
import { readProductName } from '../../lib/brand-name';
import { type AuditActor, auditSettings, readSettingValues } from '../audit';

export const STATEMENT_ISSUER_NAME_SETTING = 'STATEMENT_ISSUER_NAME';
export const STATEMENT_ISSUER_ADDRESS_SETTING = 'STATEMENT_ISSUER_ADDRESS';

export async function readStatementIssuer(db: DbOrTx): Promise<StatementIssuerView> {
  const found = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, [STATEMENT_ISSUER_NAME_SETTING, STATEMENT_ISSUER_ADDRESS_SETTING]));
  const value = (key: string) => found.find((row) => row.key === key)?.value?.trim() ?? '';
  const legalName = value(STATEMENT_ISSUER_NAME_SETTING);
  return legalName
    ? { legalName, address: value(STATEMENT_ISSUER_ADDRESS_SETTING), source: 'settings' }
    : { legalName: await readProductName(db), address: '', source: 'default' };
}

export async function saveStatementIssuer(
  db: DbOrTx,
  input: StatementIssuerInput,
  updatedBy: string,
  actor?: AuditActor,
): Promise<StatementIssuerView> {
  const now = new Date();
  // Line endings kept as LF, blank lines dropped: the address prints one line per line.
  const address = input.address
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
  const next = {
    [STATEMENT_ISSUER_NAME_SETTING]: input.legalName,
    [STATEMENT_ISSUER_ADDRESS_SETTING]: address,
  };
  await db.transaction(async (tx) => {
    const before = await readSettingValues(tx, Object.keys(next));
    for (const [key, value] of Object.entries(next)) {
      await tx
        .insert(settings)
        .values({ key, value, updatedBy, updatedAt: now })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedBy, updatedAt: now } });
    }
    // Audited as stored (record 191).
    if (actor) await auditSettings(tx, actor, 'Statement issuer', before, next);
  });
  return readStatementIssuer(db);
}
