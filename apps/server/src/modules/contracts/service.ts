/**
 * Label contracts (issue 39, record 285): create, edit and read a contract with its releases and ordered
 * terms. Every rule the form shows is checked here too: the parties exist and differ, the releases are the
 * label's and in no other contract. A save replaces the releases and terms in one transaction under the
 * contracts lock (shared), so a posting applies a contract as saved before it or after it, never half.
 */
import {
  CONTRACT_TEXTS,
  type ContractInputParsed,
  type ContractListItem,
  type ContractParty,
  type ContractTerm,
  type ContractView,
  type LabelReleases,
} from '@tunedrop/shared/schemas/contracts';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { contractReleases, contracts, contractTerms, profiles, releases } from '../../db/schema';
import { AppError, notFound, validationError } from '../../lib/errors';
import { rows, run } from '../../lib/sql';
import { type AuditActor, recordAudit } from '../audit';

/** Contract edits take this advisory lock shared, the posting's contract step exclusive (record 285). */
export const CONTRACTS_LOCK_KEY = 1_702_039;

async function party(db: DbOrTx, email: string): Promise<ContractParty | null> {
  const [found] = await db
    .select({ id: profiles.id, email: profiles.email, artistName: profiles.artistName })
    .from(profiles)
    .where(sql`lower(${profiles.email}) = ${email.toLowerCase()}`);
  return found ?? null;
}

async function partyById(db: DbOrTx, id: string): Promise<ContractParty> {
  const [found] = await db
    .select({ id: profiles.id, email: profiles.email, artistName: profiles.artistName })
    .from(profiles)
    .where(eq(profiles.id, id));
  return found ?? { id, email: '', artistName: '' };
}

/** The label's releases for the form, each with the contract that holds it (if any). */
export async function labelReleases(db: DbOrTx, email: string): Promise<LabelReleases> {
  const label = await party(db, email);
  if (!label)
    throw validationError(CONTRACT_TEXTS.labelNotFound, { labelEmail: CONTRACT_TEXTS.labelNotFound });
  const found = await rows<{
    id: string;
    title: string;
    contractId: string | null;
    contractName: string | null;
  }>(
    db,
    sql`
      select r.id, r.title, c.id as contract_id, c.name as contract_name
        from releases r
        left join contract_releases cr on cr.release_id = r.id
        left join contracts c on c.id = cr.contract_id
       where r.user_id = ${label.id}
       order by lower(r.title), r.id`,
  );
  return {
    label,
    releases: found.map((row) => ({
      id: row.id,
      title: row.title,
      contract: row.contractId ? { id: row.contractId, name: row.contractName ?? '' } : null,
    })),
  };
}

export async function listContracts(db: DbOrTx): Promise<ContractListItem[]> {
  const found = await rows<{
    id: string;
    name: string;
    labelId: string;
    labelEmail: string;
    labelName: string;
    payeeId: string;
    payeeEmail: string;
    payeeName: string;
    startsOn: string;
    endsOn: string | null;
    releases: number | string;
    terms: number | string;
  }>(
    db,
    sql`
      select c.id, c.name, c.label_id, l.email as label_email, l.artist_name as label_name,
             c.payee_user_id as payee_id, p.email as payee_email, p.artist_name as payee_name,
             c.starts_on::text as starts_on, c.ends_on::text as ends_on,
             (select count(*) from contract_releases cr where cr.contract_id = c.id) as releases,
             (select count(*) from contract_terms t where t.contract_id = c.id) as terms
        from contracts c
        join profiles l on l.id = c.label_id
        join profiles p on p.id = c.payee_user_id
       order by lower(l.email), lower(c.name), c.id`,
  );
  return found.map((row) => ({
    id: row.id,
    name: row.name,
    label: { id: row.labelId, email: row.labelEmail, artistName: row.labelName },
    payee: { id: row.payeeId, email: row.payeeEmail, artistName: row.payeeName },
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    releases: Number(row.releases),
    terms: Number(row.terms),
  }));
}

export async function readContract(db: DbOrTx, id: string): Promise<ContractView> {
  const [contract] = await db.select().from(contracts).where(eq(contracts.id, id));
  if (!contract) throw notFound(CONTRACT_TEXTS.notFound);
  const bound = await db
    .select({ id: releases.id, title: releases.title })
    .from(contractReleases)
    .innerJoin(releases, eq(releases.id, contractReleases.releaseId))
    .where(eq(contractReleases.contractId, id))
    .orderBy(sql`lower(${releases.title})`, releases.id);
  const terms = await db
    .select()
    .from(contractTerms)
    .where(eq(contractTerms.contractId, id))
    .orderBy(asc(contractTerms.position));
  return {
    id: contract.id,
    name: contract.name,
    dealType: contract.dealType,
    currency: 'USD',
    label: await partyById(db, contract.labelId),
    payee: await partyById(db, contract.payeeUserId),
    startsOn: contract.startsOn,
    endsOn: contract.endsOn,
    defaultBasis: contract.defaultBasis,
    defaultRate: contract.defaultRate === null ? null : trimRate(contract.defaultRate),
    releases: bound,
    terms: terms.map(
      (term): ContractTerm => ({
        territories: term.territories,
        channel: term.channel,
        store: term.store,
        startsOn: term.startsOn,
        endsOn: term.endsOn,
        basis: term.basis,
        rate: trimRate(term.rate),
        reservePercent: trimRate(term.reservePercent),
        reserveSchedule: term.reserveSchedule.map((part) => trimRate(String(part))),
      }),
    ),
    updatedAt: contract.updatedAt.toISOString(),
  };
}

/** A numeric as the form typed it ("50.0000" → "50"); rates have at most 4 decimals, so no rounding. */
function trimRate(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/**
 * Creates (no id) or replaces (id) a contract. Refusals: 422 with the field for an unknown party or a
 * release not the label's, 409 for a release in another contract, 404 for an unknown contract.
 */
export async function saveContract(
  db: Db,
  input: ContractInputParsed,
  actor: AuditActor & { user: { id: string } },
  id?: string,
): Promise<ContractView> {
  const savedId = await db.transaction(async (tx) => {
    await run(tx, sql`select pg_advisory_xact_lock_shared(${CONTRACTS_LOCK_KEY})`);
    const label = await party(tx, input.labelEmail);
    if (!label)
      throw validationError(CONTRACT_TEXTS.labelNotFound, { labelEmail: CONTRACT_TEXTS.labelNotFound });
    const payee = await party(tx, input.payeeEmail);
    if (!payee)
      throw validationError(CONTRACT_TEXTS.payeeNotFound, { payeeEmail: CONTRACT_TEXTS.payeeNotFound });
    if (payee.id === label.id) {
      throw validationError(CONTRACT_TEXTS.payeeIsLabel, { payeeEmail: CONTRACT_TEXTS.payeeIsLabel });
    }
    const releaseIds = [...new Set(input.releaseIds)];
    const chosen = await rows<{
      id: string;
      title: string;
      ownerId: string | null;
      contractName: string | null;
    }>(
      tx,
      sql`
        select x.id::text as id, r.title, r.user_id as owner_id, c.name as contract_name
          from jsonb_array_elements_text(${JSON.stringify(releaseIds)}::jsonb) as x(id)
          left join releases r on r.id = x.id::uuid
          left join contract_releases cr on cr.release_id = r.id and cr.contract_id is distinct from ${id ?? null}::uuid
          left join contracts c on c.id = cr.contract_id`,
    );
    if (chosen.some((row) => row.ownerId !== label.id)) {
      throw validationError(CONTRACT_TEXTS.releaseNotLabels, { releaseIds: CONTRACT_TEXTS.releaseNotLabels });
    }
    const taken = chosen.find((row) => row.contractName !== null);
    if (taken) {
      throw new AppError(
        'release_in_contract',
        CONTRACT_TEXTS.releaseTaken(taken.title ?? '', taken.contractName ?? ''),
        409,
      );
    }
    const values = {
      name: input.name,
      labelId: label.id,
      payeeUserId: payee.id,
      startsOn: input.startsOn,
      endsOn: input.endsOn,
      defaultBasis: input.defaultRate === null ? null : input.defaultBasis,
      defaultRate: input.defaultRate,
    };
    let before: ContractView | null = null;
    let contractId: string;
    if (id) {
      before = await readContract(tx, id);
      await tx
        .update(contracts)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(contracts.id, id));
      await tx.delete(contractReleases).where(eq(contractReleases.contractId, id));
      await tx.delete(contractTerms).where(eq(contractTerms.contractId, id));
      contractId = id;
    } else {
      const [created] = await tx
        .insert(contracts)
        .values({ ...values, createdBy: actor.user.id })
        .returning({ id: contracts.id });
      if (!created) throw new Error('contracts: the contract was not written');
      contractId = created.id;
    }
    await tx.insert(contractReleases).values(releaseIds.map((releaseId) => ({ contractId, releaseId })));
    if (input.terms.length > 0) {
      await tx
        .insert(contractTerms)
        .values(input.terms.map((term, position) => ({ contractId, position: position + 1, ...term })));
    }
    const after = await readContract(tx, contractId);
    await recordAudit(tx, actor, {
      kind: id ? 'contracts.edit' : 'contracts.create',
      subject: { type: 'contract', id: contractId, label: input.name },
      subjectUserId: payee.id,
      before: before ? auditShape(before) : null,
      after: auditShape(after),
    });
    return contractId;
  });
  return readContract(db, savedId);
}

/** What the audit log keeps of a contract: names and figures, not ids. */
function auditShape(view: ContractView) {
  return {
    name: view.name,
    label: view.label.email,
    payee: view.payee.email,
    startsOn: view.startsOn,
    endsOn: view.endsOn,
    defaultBasis: view.defaultBasis,
    defaultRate: view.defaultRate,
    releases: view.releases.map((release) => release.title),
    terms: view.terms,
  };
}
