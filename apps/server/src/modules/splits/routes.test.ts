/**
 * Royalty splits on the test database (PGlite by default, PostgreSQL with DATABASE_URL): the owner's rules,
 * invitations, posting with splits (exact cents: everything credited or held equals the posted lines'
 * cents), held shares returned after a withdrawal, recoupment across two reports, effective dating, the
 * payee's view, and a split edit racing a posting.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceUpdatesLog, mailOutbox, profiles } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { postImport } from '../royalty-posting';
import { auditBalances } from '../wallet';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
type Person = { userId: string; cookie: string; email: string };
let owner: Person;
let collaborator: Person;
let stranger: Person;
let other: Person;
let releaseId: string;
let track1: string;
let track2: string;
const LATER_EMAIL = 'later.payee@example.com';

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  owner = await system.signedInUser({ plan: 'basic', email: 'owner.split@example.com' });
  // A collaborator without any subscription: shares need no plan.
  collaborator = await system.signedInUser({ subscription: 'inactive', email: 'collab.split@example.com' });
  stranger = await system.signedInUser({ plan: 'pro' });
  other = await system.signedInUser({ plan: 'basic' });
  const release = await createTestRelease(system, owner.userId, {
    status: 'live',
    title: 'Split Songs',
    trackCount: 2,
    isrcs: ['QZSPL2500001', 'QZSPL2500002'],
  });
  releaseId = release.releaseId;
  [track1, track2] = release.trackIds as [string, string];
  await createTestRelease(system, other.userId, { status: 'live', isrcs: ['QZOTH2500001'] });
});
afterAll(async () => {
  await system.close();
});

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

/** Imports a DistroKid report of [isrc, amount] lines for one month and posts it; returns the result. */
async function postReport(month: string, lines: [string, string][], name: string) {
  const body = `${[
    HEADER,
    ...lines.map(
      ([isrc, amount]) =>
        `2025-12-10\t${month}\tSpotify\tArtist\tSong\t${isrc}\t\t100\t100\tSong\tUS\t0\t${amount}`,
    ),
  ].join('\r\n')}\r\n`;
  const upload = await system.request(`/api/admin/royalties/imports?filename=${name}.tsv`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  // The upload queues the import's job (royalties, decision 161); run it, then post in process for the
  // posting's result (held and returned cents).
  const summary = await readJson(await afterJobs(system, upload, people.admin.cookie));
  expect(summary.status).toBe('staged');
  return postImport(system.db, summary.id, { admin: null });
}

async function balanceOf(userId: string): Promise<number> {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  return row?.balanceCents ?? 0;
}

const putSplit = (cookie: string, json: unknown, id = releaseId) =>
  system.request(`/api/releases/${id}/splits`, { method: 'PUT', cookie, json });

async function splitsOf(cookie = owner.cookie) {
  return readJson(await system.request(`/api/releases/${releaseId}/splits`, { cookie }));
}

async function invitationToken(email: string): Promise<string> {
  const [mail] = await system.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, email))
    .orderBy(desc(mailOutbox.createdAt));
  const match = /http:\/\/localhost:3000\/splits\/invitations\/([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '');
  if (!match?.[1]) throw new Error(`no invitation mail for ${email}`);
  return match[1];
}

let collaboratorToken: string;

describe('split rules', () => {
  it('refuses sums other than 100, duplicates, the owner listed, and percentages out of range', async () => {
    const cases: [unknown, string][] = [
      [
        { trackId: null, ownerPercent: '50', payees: [{ email: collaborator.email, percent: '49.99' }] },
        'The shares, with your own, must add up to exactly 100%.',
      ],
      [
        {
          trackId: null,
          ownerPercent: '40',
          payees: [
            { email: collaborator.email, percent: '30' },
            { email: collaborator.email.toUpperCase(), percent: '30' },
          ],
        },
        'Each collaborator can be listed once.',
      ],
      [
        { trackId: null, ownerPercent: '100', payees: [{ email: collaborator.email, percent: '0' }] },
        'A share must be between 0.01% and 100%.',
      ],
      [
        { trackId: null, ownerPercent: '0', payees: [{ email: collaborator.email, percent: '100.001' }] },
        'Enter a percentage with at most two decimals.',
      ],
    ];
    for (const [json, message] of cases) {
      const response = await putSplit(owner.cookie, json);
      expect(response.status).toBe(422);
      expect(JSON.stringify(await readJson(response))).toContain(message);
    }
    const self = await putSplit(owner.cookie, {
      trackId: null,
      ownerPercent: '50',
      payees: [{ email: 'OWNER.split@example.com', percent: '50' }],
    });
    expect(self.status).toBe(422);
    expect((await readJson(self)).error.code).toBe('owner_listed');
    const foreignTrack = await putSplit(owner.cookie, {
      trackId: '00000000-0000-4000-8000-000000000000',
      ownerPercent: '100',
      payees: [],
    });
    expect(foreignTrack.status).toBe(422);
    expect((await splitsOf()).history).toEqual([]);
  });

  it('lets only the owner (and admins) see and change the splits', async () => {
    const json = { trackId: null, ownerPercent: '100', payees: [] };
    expect((await putSplit(stranger.cookie, json)).status).toBe(404);
    expect(
      (await system.request(`/api/releases/${releaseId}/splits`, { cookie: stranger.cookie })).status,
    ).toBe(404);
    // Changing splits needs a subscription (record 147): the collaborator has none.
    expect((await putSplit(collaborator.cookie, json)).status).toBe(402);
    const asAdmin = await system.request(`/api/releases/${releaseId}/splits`, {
      cookie: people.admin.cookie,
    });
    expect(asAdmin.status).toBe(200);
  });

  it('saves a release default and a track split, inviting each new payee once by mail', async () => {
    const saved = await putSplit(owner.cookie, {
      trackId: null,
      ownerPercent: '50',
      payees: [
        { email: collaborator.email, percent: '30' },
        { email: LATER_EMAIL, percent: '20' },
      ],
    });
    expect(saved.status).toBe(200);
    const track = await putSplit(owner.cookie, {
      trackId: track2,
      ownerPercent: '40',
      payees: [{ email: collaborator.email, percent: '60' }],
    });
    expect(track.status).toBe(200);
    const splits = await readJson(track);
    expect(
      splits.current.map((v: { trackId: string | null; ownerPercent: string }) => [
        v.trackId,
        v.ownerPercent,
      ]),
    ).toEqual([
      [null, '50.00'],
      [track2, '40.00'],
    ]);
    expect(splits.payees.map((p: { email: string; status: string }) => [p.email, p.status])).toEqual([
      [collaborator.email, 'pending'],
      [LATER_EMAIL, 'pending'],
    ]);
    const mails = await system.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, collaborator.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('You are invited to share royalties on Tunedrop');
    collaboratorToken = await invitationToken(collaborator.email);
  });

  it('shows the invitation publicly and lets a collaborator without a plan accept it once', async () => {
    const shown = await readJson(await system.request(`/api/split-invitations/${collaboratorToken}`));
    expect(shown).toMatchObject({
      releaseTitle: 'Split Songs',
      // Signed out, the invited address is masked (record 147).
      email: 'c•••@example.com',
      status: 'pending',
      shares: [
        { trackTitle: null, percent: '30.00' },
        { trackTitle: 'Track 2', percent: '60.00' },
      ],
    });
    const anonymous = await system.request(`/api/split-invitations/${collaboratorToken}/accept`, {
      method: 'POST',
    });
    expect(anonymous.status).toBe(401);
    const ownAccept = await system.request(`/api/split-invitations/${collaboratorToken}/accept`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(ownAccept.status).toBe(422);
    const accepted = await system.request(`/api/split-invitations/${collaboratorToken}/accept`, {
      method: 'POST',
      cookie: collaborator.cookie,
    });
    expect(accepted.status).toBe(200);
    expect(await readJson(accepted)).toEqual({ accepted: true, releasedCents: 0 });
    const again = await system.request(`/api/split-invitations/${collaboratorToken}/accept`, {
      method: 'POST',
      cookie: collaborator.cookie,
    });
    expect(again.status).toBe(409);
    expect((await system.request('/api/split-invitations/not-a-real-token-at-all-xyz')).status).toBe(404);
  });
});

describe('posting with splits', () => {
  it('pays each payee their exact share, holds the unaccepted one, and loses no cent', async () => {
    const other0 = await balanceOf(other.userId);
    const result = await postReport(
      '2025-01',
      [
        ['QZSPL2500001', '100.00'],
        ['QZSPL2500001', '0.01'],
        ['QZSPL2500002', '10.00'],
        ['QZOTH2500001', '5.00'],
      ],
      'report-1',
    );
    // Track 1: 100.01 × 30% = 30.003 (collaborator), × 20% = 20.002 (held for the later payee);
    // track 2: 10.00 × 60% = 6.00. Collaborator 36.003 → 36.00; held 20.00; owner 110.01 − 56.00 = 54.01.
    expect(await balanceOf(collaborator.userId)).toBe(3600);
    expect(await balanceOf(owner.userId)).toBe(5401);
    expect((await balanceOf(other.userId)) - other0).toBe(500);
    expect(result.heldCents).toBe(2000);
    // Every cent of the posted lines is credited or held.
    expect(result.postedCents + result.heldCents).toBe(10001 + 1000 + 500);
    expect(result.residue).toBe('0');
    const settlements = (await system.db.execute(
      sql`select amount_usd::text as amount, cents::int as cents, held from split_settlements
           where import_id = ${result.importId} order by cents desc`,
    )) as unknown as { rows: { amount: string; cents: number; held: boolean }[] };
    // The sub-cent residue (0.003 and 0.002) stays with the owner, recorded as amount − cents.
    expect(settlements.rows).toEqual([
      { amount: '36.003', cents: 3600, held: false },
      { amount: '20.002', cents: 2000, held: true },
    ]);
    const [mail] = await system.db
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.recipient, collaborator.email),
          eq(mailOutbox.subject, 'New earnings: $36.00 for 2025-01'),
        ),
      );
    expect(mail?.textBody).toContain(
      'You earned $36.00 for 2025-01, including $36.00 of royalty split shares.',
    );
    const splits = await splitsOf();
    expect(splits.heldCents).toBe(2000);
    expect(splits.payees.find((p: { email: string }) => p.email === LATER_EMAIL).heldCents).toBe(2000);
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
  });

  it('shows the collaborator their shares, balance and statements without a subscription', async () => {
    const shares = await readJson(
      await system.request('/api/splits/shares', { cookie: collaborator.cookie }),
    );
    expect(shares.totals).toEqual({ paidCents: 3600, heldCents: 0 });
    expect(
      shares.items.map(
        (item: { releaseTitle: string; trackTitle: string; percent: string; amountUsd: string }) => [
          item.releaseTitle,
          item.trackTitle,
          item.percent,
          item.amountUsd,
        ],
      ),
    ).toEqual([
      ['Split Songs', 'Track 1', '30.00', '30.003'],
      ['Split Songs', 'Track 2', '60.00', '6'],
    ]);
    expect(shares.items[0].reportName).toBe('report-1.tsv');
    const wallet = await readJson(await system.request('/api/wallet', { cookie: collaborator.cookie }));
    expect(wallet).toMatchObject({ balanceCents: 3600, minimumWithdrawalCents: 5000 });
    const periods = await readJson(
      await system.request('/api/royalties/statements', { cookie: collaborator.cookie }),
    );
    // One statement per month of balance changes (record 190): the shares came with this month's posting.
    const month = new Date().toISOString().slice(0, 7);
    expect(periods.items).toEqual([
      { period: month, openingCents: 0, closingCents: 3600, amountCents: 3600, lines: 0 },
    ]);
    const csv = await (
      await system.request(`/api/royalties/statements/${month}.csv`, { cookie: collaborator.cookie })
    ).text();
    expect(csv).toContain(
      `Split share received,From ${owner.email} (30.00%),,,,,,Split Songs,,Track 1,QZSPL2500001,,3000,30.003`,
    );
    const pdf = await system.request(`/api/royalties/statements/${month}.pdf`, {
      cookie: collaborator.cookie,
    });
    expect(pdf.status).toBe(200);
    const ownerCsv = await (
      await system.request(`/api/royalties/statements/${month}.csv`, { cookie: owner.cookie })
    ).text();
    expect(ownerCsv).toContain(
      `Split share paid,"To ${LATER_EMAIL} (20.00%), held until they accept",,,,,,Split Songs,,Track 1,QZSPL2500001,,-2000,-20.002`,
    );
    const ownerPeriods = await readJson(
      await system.request('/api/royalties/statements', { cookie: owner.cookie }),
    );
    expect(ownerPeriods.items[0]).toMatchObject({ period: month, amountCents: 5401, lines: 3 });
  });

  it('returns held money to the owner in the next posting after a withdrawal, with a ledger line', async () => {
    const splits = await splitsOf();
    const later = splits.payees.find((p: { email: string }) => p.email === LATER_EMAIL);
    const byStranger = await system.request(`/api/releases/${releaseId}/splits/payees/${later.id}/withdraw`, {
      method: 'POST',
      cookie: stranger.cookie,
    });
    expect(byStranger.status).toBe(404);
    const withdrawn = await system.request(`/api/releases/${releaseId}/splits/payees/${later.id}/withdraw`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(withdrawn.status).toBe(200);
    const collaboratorPayee = splits.payees.find((p: { email: string }) => p.email === collaborator.email);
    const accepted = await system.request(
      `/api/releases/${releaseId}/splits/payees/${collaboratorPayee.id}/withdraw`,
      { method: 'POST', cookie: owner.cookie },
    );
    expect(accepted.status).toBe(409);
    // The later payee's invitation is no longer valid.
    const token = await invitationToken(LATER_EMAIL);
    const late = await system.request(`/api/split-invitations/${token}/accept`, {
      method: 'POST',
      cookie: stranger.cookie,
    });
    expect(late.status).toBe(409);
    // Held until the next posting.
    expect(await balanceOf(owner.userId)).toBe(5401);
    // An expense recouped first: $50.00, of which report 2 repays $30.00 and report 3 the last $20.00.
    const expense = await system.request(`/api/releases/${releaseId}/expenses`, {
      method: 'POST',
      cookie: owner.cookie,
      json: { amount: '50.00', description: 'Mastering', spentOn: '2025-01-20' },
    });
    expect(expense.status).toBe(201);
    expect((await readJson(expense)).recoupment).toEqual({
      expensesCents: 5000,
      recoupedCents: 0,
      remainingCents: 5000,
    });
    const badExpense = await system.request(`/api/releases/${releaseId}/expenses`, {
      method: 'POST',
      cookie: owner.cookie,
      json: { amount: '-5', description: 'Nope', spentOn: '2025-01-20' },
    });
    expect(badExpense.status).toBe(422);

    const result = await postReport('2025-02', [['QZSPL2500001', '30.00']], 'report-2');
    expect(result).toMatchObject({ heldCents: 0, returnedCents: 2000, postedCents: 3000 });
    // All $30.00 recouped to the owner; the collaborator's 30% applies to nothing.
    expect(await balanceOf(owner.userId)).toBe(5401 + 3000 + 2000);
    expect(await balanceOf(collaborator.userId)).toBe(3600);
    const ledger = await readJson(await system.request('/api/royalties/ledger', { cookie: owner.cookie }));
    expect(
      ledger.items.map((item: { description: string; amountCents: number }) => [
        item.description,
        item.amountCents,
      ]),
    ).toContainEqual([`Held split shares returned: invitation to ${LATER_EMAIL} withdrawn`, 2000]);
    const after = await splitsOf();
    expect(after.recoupment).toEqual({ expensesCents: 5000, recoupedCents: 3000, remainingCents: 2000 });
    expect(after.heldCents).toBe(0);
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
  });

  it('finishes recoupment in the next report and splits the rest', async () => {
    const result = await postReport('2025-03', [['QZSPL2500001', '30.00']], 'report-3');
    // $20.00 recouped, $10.00 split: collaborator 30% = $3.00; the withdrawn payee's 20% stays with the owner.
    expect(result).toMatchObject({ heldCents: 0, postedCents: 3000 });
    expect(await balanceOf(collaborator.userId)).toBe(3600 + 300);
    expect(await balanceOf(owner.userId)).toBe(10401 + 2700);
    expect((await splitsOf()).recoupment).toEqual({
      expensesCents: 5000,
      recoupedCents: 5000,
      remainingCents: 0,
    });
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
  });

  it('applies a changed split only to reports posted after it and keeps every version', async () => {
    const changed = await putSplit(owner.cookie, {
      trackId: null,
      ownerPercent: '90',
      payees: [{ email: collaborator.email, percent: '10' }],
    });
    expect(changed.status).toBe(200);
    const splits = await readJson(changed);
    expect(
      splits.history.map((v: { trackId: string | null; version: number; ownerPercent: string }) => [
        v.trackId,
        v.version,
        v.ownerPercent,
      ]),
    ).toEqual([
      [null, 2, '90.00'],
      [track2, 1, '40.00'],
      [null, 1, '50.00'],
    ]);
    await postReport('2025-04', [['QZSPL2500001', '10.00']], 'report-4');
    expect(await balanceOf(collaborator.userId)).toBe(3900 + 100);
    // Earlier reports keep the version they were posted with.
    const used = (await system.db.execute(sql`
      select i.file_name, v.version from split_allocations a
        join royalty_imports i on i.id = a.import_id join split_versions v on v.id = a.version_id
       where a.kind = 'share' and a.track_id = ${track1} and a.payee_id is not null
       group by i.file_name, v.version order by i.file_name`)) as unknown as {
      rows: { file_name: string; version: number }[];
    };
    expect(used.rows).toEqual([
      { file_name: 'report-1.tsv', version: 1 },
      // Report 2 was all recouped: its 30% share is of $0, recorded all the same.
      { file_name: 'report-2.tsv', version: 1 },
      { file_name: 'report-3.tsv', version: 1 },
      { file_name: 'report-4.tsv', version: 2 },
    ]);
  });

  it('orders a split edit racing a posting: the posting uses exactly the versions saved before it', async () => {
    const edits = Array.from({ length: 3 }, (_, index) =>
      putSplit(owner.cookie, {
        trackId: null,
        ownerPercent: String(80 - index),
        payees: [{ email: collaborator.email, percent: String(20 + index) }],
      }),
    );
    const [result, ...saved] = await Promise.all([
      postReport('2025-05', [['QZSPL2500001', '100.00']], 'report-5'),
      ...edits,
    ]);
    for (const response of saved) expect(response.status).toBe(200);
    const check = (await system.db.execute(sql`
      select v.version as used,
             (select max(w.version) from split_versions w
               where w.release_id = ${releaseId} and w.track_id is null and w.created_at <= i.posted_at) as newest_before
        from split_allocations a
        join royalty_imports i on i.id = a.import_id
        join split_versions v on v.id = a.version_id
       where a.import_id = ${result.importId} and a.kind = 'share'`)) as unknown as {
      rows: { used: number; newest_before: number }[];
    };
    expect(check.rows).toHaveLength(1);
    expect(Number(check.rows[0]?.used)).toBe(Number(check.rows[0]?.newest_before));
    const [share] = (
      (await system.db.execute(
        sql`select cents::int as cents from split_settlements where import_id = ${result.importId}`,
      )) as unknown as { rows: { cents: number }[] }
    ).rows;
    const [version] = (
      (await system.db.execute(
        sql`select s.percent::text as percent from split_shares s join split_versions v on v.id = s.version_id
             where v.release_id = ${releaseId} and v.track_id is null and v.version = ${check.rows[0]?.used}`,
      )) as unknown as { rows: { percent: string }[] }
    ).rows;
    expect(share?.cents).toBe(Math.round(Number(version?.percent) * 100));
    const logs = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(and(eq(balanceUpdatesLog.royaltyImportId, result.importId)));
    const credited = logs.reduce((sum, row) => sum + row.newBalanceCents - row.oldBalanceCents, 0);
    expect(credited).toBe(10000);
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
  });
});

describe('deleting a release with splits', () => {
  it('takes the split set-up with a release never paid out, and keeps one whose splits carried money', async () => {
    const fresh = await createTestRelease(system, owner.userId, { status: 'pending', title: 'Unpaid Split' });
    const saved = await putSplit(
      owner.cookie,
      { trackId: null, ownerPercent: '60', payees: [{ email: 'gone.payee@example.com', percent: '40' }] },
      fresh.releaseId,
    );
    expect(saved.status).toBe(200);
    const removed = await system.request(`/api/releases/${fresh.releaseId}`, {
      method: 'DELETE',
      cookie: owner.cookie,
    });
    expect(removed.status).toBeLessThan(300);
    const left = (await system.db.execute(
      sql`select count(*)::int as n from split_payees where release_id = ${fresh.releaseId}`,
    )) as unknown as { rows: { n: number }[] };
    expect(left.rows[0]?.n).toBe(0);

    // The shared release has been paid through its splits: a permanent delete is refused, nothing changes.
    await system.db.execute(sql`update releases set status = 'approved' where id = ${releaseId}`);
    const refused = await system.request(`/api/admin/releases/${releaseId}`, {
      method: 'DELETE',
      cookie: people.admin.cookie,
    });
    expect(refused.status).toBe(409);
    expect((await readJson(refused)).error.code).toBe('release_has_split_history');
    const still = (await system.db.execute(
      sql`select count(*)::int as n from releases where id = ${releaseId}`,
    )) as unknown as { rows: { n: number }[] };
    expect(still.rows[0]?.n).toBe(1);
  });
});
