/**
 * The suspense account (issue 25, decision 188): the held lines by code, and the two ways out. Assigning
 * a code pays its open lines to the track's or release's artist: one small posted import per original
 * report (`suspense_of`), run through the posting's own settling transaction (fee, recoupment, splits,
 * balances, mails), all inside one transaction with the code's mapping for later imports and the audit
 * row. Releasing books the lines to operator revenue with a reason. Both lock the open lines first, so
 * a second assignment or release of the same code finds nothing open and is refused.
 */
import { randomUUID } from 'node:crypto';
import { negateDecimal, sumDecimalsAtScale } from '@tunedrop/shared/money';
import type {
  SuspenseAssignInput,
  SuspenseAssignResult,
  SuspenseCode,
  SuspenseKind,
  SuspenseQuery,
  SuspenseReleaseInput,
  SuspenseReleaseResult,
  SuspenseResponse,
} from '@tunedrop/shared/schemas/royalty-suspense';
import {
  SUSPENSE_LINES_PER_CODE,
  SUSPENSE_PAGE_SIZE,
  SUSPENSE_TEXTS,
} from '@tunedrop/shared/schemas/royalty-suspense';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { profiles, releases, royaltyImports, tracks } from '../../db/schema';
import { AppError, notFound, validationError } from '../../lib/errors';
import { firstRow, rows, run } from '../../lib/sql';
import { type AuditActor, recordAudit } from '../audit';
import { recordTransaction } from '../ledger';
import { assignCode, normaliseIsrc, normaliseUpc } from '../royalty-imports';
import { postInTransaction } from './posting-settle';

type Kind = SuspenseKind;

const codeOf = (kind: Kind, code: string) =>
  kind === 'none' ? '' : kind === 'isrc' ? normaliseIsrc(code) : normaliseUpc(code);

/**
 * Open lines of one code: an ISRC's lines, or a UPC's lines that carry no ISRC (as the matcher reads
 * them), or the lines that came with no code at all.
 */
const codeMatch = (kind: Kind, code: string): SQL =>
  kind === 'none'
    ? sql`s.isrc is null and s.upc is null`
    : kind === 'isrc'
      ? sql`s.isrc = ${code}`
      : sql`s.upc = ${code} and s.isrc is null`;

const kindSql = sql`case when s.isrc is not null then 'isrc' when s.upc is not null then 'upc' else 'none' end`;
const codeSql = sql`coalesce(s.isrc, s.upc, '')`;

const labelOf = (kind: Kind, code: string) =>
  kind === 'none' ? 'Lines without a code' : `${kind === 'isrc' ? 'ISRC' : 'UPC'} ${code}`;

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listSuspense(db: Db, query: SuspenseQuery): Promise<SuspenseResponse> {
  const total = await firstRow<{ amount: string; lines: number | string }>(
    db,
    sql`select trim_scale(coalesce(sum(amount_usd), 0))::text as amount, count(*) as lines
          from royalty_suspense_lines where state = 'open'`,
  );
  const q = query.q?.trim();
  const search = q
    ? sql`and (${codeSql} ilike ${likePattern(q)} or s.title ilike ${likePattern(q)}
               or s.artist ilike ${likePattern(q)})`
    : sql``;
  const offset = (query.page - 1) * SUSPENSE_PAGE_SIZE;
  const groups = await rows<{
    kind: Kind;
    code: string;
    lines: number | string;
    reports: number | string;
    amountUsd: string;
    title: string | null;
    artist: string | null;
    codes: number | string;
  }>(
    db,
    sql`
      select ${kindSql} as kind, ${codeSql} as code,
             count(*) as lines, count(distinct s.import_id) as reports,
             trim_scale(sum(s.amount_usd))::text as amount_usd,
             min(s.title) as title, min(s.artist) as artist,
             count(*) over () as codes
        from royalty_suspense_lines s
       where s.state = 'open' ${search}
       group by 1, 2
       order by sum(s.amount_usd) desc, 2
       limit ${SUSPENSE_PAGE_SIZE} offset ${offset}`,
  );
  const codes = groups[0]
    ? Number(groups[0].codes)
    : Number(
        (
          await firstRow<{ codes: number | string }>(
            db,
            sql`select count(distinct ${codeSql}) as codes from royalty_suspense_lines s
                 where s.state = 'open' ${search}`,
          )
        )?.codes ?? 0,
      );
  const keys = groups.map((group) => `${group.kind}:${group.code}`);
  const lines =
    keys.length === 0
      ? []
      : await rows<{
          key: string;
          id: string;
          importId: string;
          fileName: string;
          currency: string | null;
          period: string;
          store: string | null;
          country: string | null;
          title: string | null;
          artist: string | null;
          amount: string;
          amountUsd: string;
        }>(
          db,
          sql`
            select * from (
              select ${kindSql} || ':' || ${codeSql} as key,
                     s.id, s.import_id, i.file_name, i.currency, s.period, s.store, s.country, s.title, s.artist,
                     trim_scale(s.amount)::text as amount, trim_scale(s.amount_usd)::text as amount_usd,
                     row_number() over (partition by s.isrc, s.upc order by abs(s.amount_usd) desc, s.line_no) as rn
                from royalty_suspense_lines s
                join royalty_imports i on i.id = s.import_id
               where s.state = 'open'
                 and ${codeSql} in (select jsonb_array_elements_text(${JSON.stringify(groups.map((g) => g.code))}::jsonb))
            ) x
            where x.rn <= ${SUSPENSE_LINES_PER_CODE}
            order by x.rn`,
        );
  const items: SuspenseCode[] = groups.map((group) => {
    const key = `${group.kind}:${group.code}`;
    return {
      kind: group.kind,
      code: group.code,
      lines: Number(group.lines),
      reports: Number(group.reports),
      amountUsd: group.amountUsd,
      sampleTitle: group.title,
      sampleArtist: group.artist,
      items: lines.filter((line) => line.key === key).map(({ key: _key, ...line }) => ({ ...line })),
    };
  });
  return {
    totalUsd: total?.amount ?? '0',
    totalLines: Number(total?.lines ?? 0),
    codes,
    page: query.page,
    pageSize: SUSPENSE_PAGE_SIZE,
    items,
  };
}

type HeldLine = { id: string; importId: string; amountUsd: string };

/** Locks the code's open lines (a concurrent assignment or release waits, then finds them resolved). */
async function lockOpenLines(tx: Tx, kind: Kind, code: string): Promise<HeldLine[]> {
  const held = await rows<HeldLine>(
    tx,
    sql`select s.id, s.import_id, s.amount_usd::text as amount_usd from royalty_suspense_lines s
         where s.state = 'open' and ${codeMatch(kind, code)}
         order by s.import_id, s.line_no
         for update`,
  );
  if (held.length > 0) return held;
  const resolved = await firstRow<{ found: boolean }>(
    tx,
    sql`select exists (select 1 from royalty_suspense_lines s where ${codeMatch(kind, code)}) as found`,
  );
  if (resolved?.found) throw new AppError('suspense_resolved', SUSPENSE_TEXTS.alreadyResolved, 409);
  throw notFound(SUSPENSE_TEXTS.nothingHeld);
}

const sumExact = (tx: Tx, ids: string[]) =>
  firstRow<{ amount: string }>(
    tx,
    sql`select trim_scale(coalesce(sum(amount_usd), 0))::text as amount from royalty_suspense_lines
         where id in (select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::uuid)`,
  ).then((row) => row?.amount ?? '0');

const periodLabel = (start: string | null, end: string | null) => {
  const from = start?.slice(0, 7) ?? '';
  const to = end?.slice(0, 7) ?? from;
  return from === to ? from : `${from} to ${to}`;
};

export async function assignSuspense(
  db: Db,
  actor: AuditActor & { user: { id: string; email: string } },
  input: SuspenseAssignInput,
): Promise<SuspenseAssignResult> {
  const code = codeOf(input.kind, input.code);
  if (!code) throw validationError('Enter the code', { code: 'Enter the code' });
  const admin = { id: actor.user.id, email: actor.user.email };
  return db.transaction(async (tx) => {
    const [target] = input.trackId
      ? await tx
          .select({
            trackId: tracks.id,
            trackTitle: tracks.title,
            releaseId: releases.id,
            releaseTitle: releases.title,
            userId: releases.userId,
          })
          .from(tracks)
          .innerJoin(releases, eq(releases.id, tracks.releaseId))
          .where(eq(tracks.id, input.trackId))
      : await tx
          .select({
            trackId: sql<string | null>`null`,
            trackTitle: sql<string | null>`null`,
            releaseId: releases.id,
            releaseTitle: releases.title,
            userId: releases.userId,
          })
          .from(releases)
          .where(eq(releases.id, input.releaseId ?? ''));
    if (!target) throw notFound(input.trackId ? 'Track not found' : 'Release not found');
    const held = await lockOpenLines(tx, input.kind, code);
    const amountUsd = await sumExact(
      tx,
      held.map((line) => line.id),
    );
    const label = labelOf(input.kind, code);
    const byReport = new Map<string, string[]>();
    for (const line of held) byReport.set(line.importId, [...(byReport.get(line.importId) ?? []), line.id]);

    const postings: SuspenseAssignResult['postings'] = [];
    let creditedCents = 0;
    for (const [reportId, ids] of byReport) {
      const [report] = await tx.select().from(royaltyImports).where(eq(royaltyImports.id, reportId));
      if (!report) throw notFound('Report not found');
      const [payout] = await tx
        .insert(royaltyImports)
        .values({
          fileName: `${report.fileName} (held in suspense, ${label} assigned)`,
          fileSha256: `suspense:${randomUUID()}`,
          format: report.format,
          status: 'staged',
          phase: 'posting',
          currency: report.currency,
          exchangeRate: report.exchangeRate,
          periodStart: report.periodStart,
          periodEnd: report.periodEnd,
          lineCount: ids.length,
          linesPosted: ids.length,
          createdBy: admin.id,
          suspenseOf: report.id,
        })
        .returning({ id: royaltyImports.id });
      if (!payout) throw new Error('the suspense posting insert returned no row');
      const idList = sql`(select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::uuid)`;
      // The held lines become this posting's earnings lines, with the USD fixed when they were held.
      await run(
        tx,
        sql`
          insert into royalty_earnings
            (import_id, line_no, line_key, user_id, track_id, release_id, store, country, period, usage_type,
             units, amount, amount_usd)
          select ${payout.id}::uuid, s.line_no, s.line_key, ${target.userId}, ${target.trackId}::uuid,
                 ${target.releaseId}::uuid, s.store, s.country, s.period, s.usage_type, s.units, s.amount, s.amount_usd
            from royalty_suspense_lines s where s.id in ${idList}`,
      );
      await run(
        tx,
        sql`
          insert into royalty_posting_groups (import_id, user_id, release_id, track_id, period, amount, lines)
          select ${payout.id}::uuid, ${target.userId}, ${target.releaseId}::uuid, ${target.trackId}::uuid, s.period,
                 sum(s.amount_usd), count(*)
            from royalty_suspense_lines s where s.id in ${idList}
           group by s.period`,
      );
      // The settling step makes its temporary table for the rest of the transaction; one per posting here.
      await run(tx, sql`drop table if exists posting_groups`);
      const result = await postInTransaction(tx, payout.id, { admin });
      creditedCents += result.postedCents;
      await run(
        tx,
        sql`
          update royalty_suspense_lines s
             set state = 'assigned', assigned_import_id = ${payout.id}, user_id = ${target.userId},
                 track_id = ${target.trackId}::uuid, release_id = ${target.releaseId}::uuid,
                 resolved_by = ${admin.id}, resolved_at = clock_timestamp()
           where s.id in ${idList}`,
      );
      postings.push({
        importId: payout.id,
        reportImportId: report.id,
        fileName: report.fileName,
        period: periodLabel(report.periodStart, report.periodEnd),
      });
    }
    // Remembered for later imports; it also re-matches the waiting lines of unposted imports.
    const mapping = await assignCode(tx, admin.id, { ...input, code }, actor);
    const [owner] = await tx
      .select({ artistName: profiles.artistName, email: profiles.email })
      .from(profiles)
      .where(eq(profiles.id, target.userId));
    await recordAudit(tx, actor, {
      kind: 'royalties.suspense_assign',
      subject: { type: 'suspense', id: code, label },
      releaseId: target.releaseId,
      subjectUserId: target.userId,
      after: {
        code,
        kind: input.kind,
        assignedTo: target.trackTitle ? `${target.trackTitle} — ${target.releaseTitle}` : target.releaseTitle,
        artist: owner?.artistName || owner?.email || null,
        lines: held.length,
        amountUsd,
        creditedCents,
        reports: postings.map((posting) => `${posting.fileName} (${posting.period})`),
      },
    });
    return {
      kind: input.kind,
      code,
      lines: held.length,
      amountUsd,
      creditedCents,
      postings,
      rematchedLines: mapping.rematchedLines,
    };
  });
}

export async function releaseSuspense(
  db: Db,
  actor: AuditActor & { user: { id: string; email: string } },
  input: SuspenseReleaseInput,
): Promise<SuspenseReleaseResult> {
  const code = codeOf(input.kind, input.code);
  if (code === null || (input.kind !== 'none' && !code)) {
    throw validationError('Enter the code', { code: 'Enter the code' });
  }
  const reason = input.reason.trim();
  return db.transaction(async (tx) => {
    const held = await lockOpenLines(tx, input.kind, code);
    const ids = held.map((line) => line.id);
    const amountUsd = await sumExact(tx, ids);
    const idList = sql`(select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::uuid)`;
    // Operator revenue (H4's table, decision 188): one row per released line, naming it; the journal
    // moves the same exact USD from each report's suspense to operator revenue.
    const perReport = await rows<{ importId: string; usd: string }>(
      tx,
      sql`
        with released as (
          update royalty_suspense_lines s
             set state = 'released', reason = ${reason}, resolved_by = ${actor.user.id},
                 resolved_at = clock_timestamp()
           where s.id in ${idList}
          returning s.id, s.import_id, s.period, s.amount_usd
        ),
        booked as (
          insert into operator_revenue (kind, import_id, period, cents, amount_usd, reason, reference_id, created_by)
          select 'suspense_release', import_id, period, (trunc(amount_usd, 2) * 100)::bigint, amount_usd, ${reason},
                 id, ${actor.user.id}
            from released
        )
        select import_id, trim_scale(sum(amount_usd))::text as usd from released group by import_id`,
    );
    await recordTransaction(tx, {
      kind: 'suspense_release',
      reference: { type: 'suspense_code', id: `${input.kind}:${code}` },
      actorId: actor.user.id,
      memo: reason,
      entries: [
        ...perReport.map((row) => ({ account: 'suspense' as const, subject: row.importId, amount: row.usd })),
        {
          account: 'operator_revenue',
          amount: negateDecimal(sumDecimalsAtScale(perReport.map((row) => row.usd))),
        },
      ],
    });
    const label = labelOf(input.kind, code);
    await recordAudit(tx, actor, {
      kind: 'royalties.suspense_release',
      subject: { type: 'suspense', id: code || null, label },
      after: { code, kind: input.kind, lines: held.length, amountUsd, reason },
    });
    return { kind: input.kind, code, lines: held.length, amountUsd };
  });
}
