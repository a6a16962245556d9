/**
 * Advances and recoupable costs per contract (issue 39, record 286): recorded once (never edited), each with
 * its recoupable part; the posting's contract step (apply.ts) repays them from the payee's cents before any
 * is credited to the payee. The recoupment read here is what the admin page and the statements show.
 */

import { decimalToUnits, percentOfCents } from '@tunedrop/shared/money';
import type { ContractRecoupment, contractAdvanceSchema } from '@tunedrop/shared/schemas/contracts';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import { contractAdvances } from '../../db/schema';
import { rows, run } from '../../lib/sql';
import { type AuditActor, recordAudit } from '../audit';
import { CONTRACTS_LOCK_KEY, readContract } from './service';

export async function readRecoupment(db: DbOrTx, contractId: string): Promise<ContractRecoupment> {
  await readContract(db, contractId);
  const advances = await rows<{
    id: string;
    kind: ContractRecoupment['advances'][number]['kind'];
    amountCents: string | number;
    recoupablePercent: string;
    recoupableCents: string | number;
    memo: string | null;
    createdAt: Date | string;
  }>(
    db,
    sql`
      select id, kind, amount_cents, trim_scale(recoupable_percent)::text as recoupable_percent, recoupable_cents,
             memo, created_at
        from contract_advances where contract_id = ${contractId} order by created_at, id`,
  );
  const [recouped] = await rows<{ cents: string | number }>(
    db,
    sql`select coalesce(sum(recouped_cents), 0) as cents from contract_settlements where contract_id = ${contractId}`,
  );
  const recoupableCents = advances.reduce((sum, row) => sum + Number(row.recoupableCents), 0);
  const recoupedCents = Number(recouped?.cents ?? 0);
  return {
    advances: advances.map((row) => ({
      id: row.id,
      kind: row.kind,
      amountCents: Number(row.amountCents),
      recoupablePercent: row.recoupablePercent,
      recoupableCents: Number(row.recoupableCents),
      memo: row.memo,
      createdAt: new Date(row.createdAt).toISOString(),
    })),
    recoupableCents,
    recoupedCents,
    unrecoupedCents: Math.max(0, recoupableCents - recoupedCents),
  };
}

export async function recordAdvance(
  db: Db,
  contractId: string,
  input: z.output<typeof contractAdvanceSchema>,
  actor: AuditActor & { user: { id: string } },
): Promise<ContractRecoupment> {
  const amountCents = Number(decimalToUnits(input.amount, 2) ?? 0n);
  // amount × percent in millionths of a cent is exact (a percentage has at most 4 decimals); truncated
  // toward zero to the cent, a recoupable part never exceeds what the percentage says.
  const exact = percentOfCents(amountCents * 1_000_000, input.recoupablePercent) ?? 0n;
  const recoupableCents = Number(exact / 1_000_000n);
  await db.transaction(async (tx) => {
    // Under the contracts lock (shared): a posting applies it wholly before or wholly after.
    await run(tx, sql`select pg_advisory_xact_lock_shared(${CONTRACTS_LOCK_KEY})`);
    const contract = await readContract(tx, contractId);
    await tx.insert(contractAdvances).values({
      contractId,
      kind: input.kind,
      amountCents,
      recoupablePercent: input.recoupablePercent,
      recoupableCents,
      memo: input.memo,
      createdBy: actor.user.id,
    });
    await recordAudit(tx, actor, {
      kind: 'contracts.advance',
      subject: { type: 'contract', id: contractId, label: contract.name },
      subjectUserId: contract.payee.id,
      after: { kind: input.kind, amountCents, recoupablePercent: input.recoupablePercent, recoupableCents },
    });
  });
  return readRecoupment(db, contractId);
}
