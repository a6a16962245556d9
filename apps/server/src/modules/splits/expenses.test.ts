/**
 * Expenses a payee can see (issue 22 finding 7, record 148) on the test database: an expense needs a
 * description and stays within the bound, is written to the audit log, is mailed to the payees who accepted,
 * and shows on the payee's split shares, on the invitation of one who has not accepted yet, and on the
 * payee's statement of a period it was recouped from.
 */

import { and, eq } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, profiles, releaseExpenses } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
type Person = { userId: string; cookie: string; email: string };
let owner: Person;
let payee: Person;
let releaseId: string;
let pendingToken: string;
const PENDING = 'not.yet@example.com';

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  owner = await system.signedInUser({
    plan: 'basic',
    email: 'expense.owner@example.com',
    artistName: 'Ada Owner',
  });
  payee = await system.signedInUser({ subscription: 'inactive', email: 'expense.payee@example.com' });
  ({ releaseId } = await createTestRelease(system, owner.userId, {
    status: 'live',
    title: 'Costly Songs',
    isrcs: ['QZEXP2500001'],
  }));
  const saved = await system.request(`/api/releases/${releaseId}/splits`, {
    method: 'PUT',
    cookie: owner.cookie,
    json: {
      trackId: null,
      ownerPercent: '60',
      payees: [
        { email: payee.email, percent: '30' },
        { email: PENDING, percent: '10' },
      ],
    },
  });
  expect(saved.status).toBe(200);
  const tokenOf = async (email: string) => {
    const [mail] = await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
    return /\/splits\/invitations\/([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '')?.[1] ?? '';
  };
  const accepted = await system.request(`/api/split-invitations/${await tokenOf(payee.email)}/accept`, {
    method: 'POST',
    cookie: payee.cookie,
  });
  expect(accepted.status).toBe(200);
  pendingToken = await tokenOf(PENDING);
});
afterAll(async () => {
  await system.close();
});

const addExpense = (json: unknown, cookie = owner.cookie) =>
  system.request(`/api/releases/${releaseId}/expenses`, { method: 'POST', cookie, json });

const expenseCount = async () =>
  (await system.db.select().from(releaseExpenses).where(eq(releaseExpenses.releaseId, releaseId))).length;

async function pdfText(bytes: Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: bytes });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

describe('adding an expense', () => {
  it('refuses an expense without a real description', async () => {
    for (const description of ['', '   ', '.', '-', '\u200b\u200b\u200b\u200b', 'a.b']) {
      const response = await addExpense({ amount: '100.00', description, spentOn: '2025-01-20' });
      expect(response.status, JSON.stringify(description)).toBe(422);
      expect(JSON.stringify(await readJson(response))).toContain(
        'Describe the expense (at least 3 letters or digits).',
      );
    }
    expect(await expenseCount()).toBe(0);
  });

  it('bounds each expense and what is outstanding to $10,000.00', async () => {
    const huge = await addExpense({ amount: '1000000', description: 'Private jet', spentOn: '2025-01-20' });
    expect(huge.status).toBe(422);
    expect(JSON.stringify(await readJson(huge))).toContain(
      'Enter an amount above 0 and at most $10,000.00, with at most two decimals.',
    );
    expect(
      (await addExpense({ amount: '6000', description: 'Music video', spentOn: '2025-01-10' })).status,
    ).toBe(201);
    const over = await addExpense({
      amount: '4000.01',
      description: 'Radio campaign',
      spentOn: '2025-01-11',
    });
    expect(over.status).toBe(422);
    expect((await readJson(over)).error.message).toBe(
      'This release already has $6,000.00 of expenses not yet recouped; at most $10,000.00 may be outstanding at once.',
    );
    expect(await expenseCount()).toBe(1);
  });

  it('refuses a lapsed owner', async () => {
    await system.db
      .update(profiles)
      .set({ subscriptionStatus: 'canceled', subscriptionEnd: new Date(Date.now() - 86_400_000) })
      .where(eq(profiles.id, owner.userId));
    const refused = await addExpense({ amount: '10', description: 'Lapsed spend', spentOn: '2025-01-12' });
    expect(refused.status).toBe(402);
    await system.db
      .update(profiles)
      .set({ subscriptionStatus: 'active', subscriptionEnd: new Date(Date.now() + 86_400_000) })
      .where(eq(profiles.id, owner.userId));
    expect(await expenseCount()).toBe(1);
  });

  it('mails each payee who accepted, audits it, and shows it to payees', async () => {
    const added = await addExpense({
      amount: '50.00',
      description: 'Mastering at https://evil.example',
      spentOn: '2025-01-20',
    });
    expect(added.status).toBe(201);
    const mails = await system.db
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.recipient, payee.email),
          eq(mailOutbox.subject, 'An expense was added to a release you share on Tunedrop'),
        ),
      );
    // The music video and this one.
    expect(mails).toHaveLength(2);
    const body = mails.map((mail) => mail.textBody).find((text) => text.includes('Mastering')) ?? '';
    expect(body).toContain('  Release: "Costly Songs"');
    expect(body).toContain('  Description: "Mastering at https[:]//evil[.]example"');
    expect(body).toContain('  Amount: $50.00, spent on 2025-01-20');
    expect(body).toContain('  Expenses of this release not yet repaid: $6,050.00');
    // Not the address that has not accepted: one invitation is all it gets until it does.
    const pendingMails = await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, PENDING));
    expect(pendingMails).toHaveLength(1);

    const [audit] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.releaseId, releaseId), eq(auditLog.action, 'splits.expense')))
      .orderBy(auditLog.createdAt);
    expect(audit).toMatchObject({
      actorId: owner.userId,
      subjectUserId: owner.userId,
      after: expect.objectContaining({ amountCents: 600_000, description: 'Music video' }),
    });

    const shares = await readJson(await system.request('/api/splits/shares', { cookie: payee.cookie }));
    expect(
      shares.expenses.map((expense: { description: string; amountCents: number; releaseTitle: string }) => [
        expense.releaseTitle,
        expense.description,
        expense.amountCents,
      ]),
    ).toEqual([
      ['Costly Songs', 'Mastering at https://evil.example', 5000],
      ['Costly Songs', 'Music video', 600_000],
    ]);
    const invitation = await readJson(await system.request(`/api/split-invitations/${pendingToken}`));
    expect(invitation.remainingExpenseCents).toBe(605_000);
    expect(invitation.expenses.map((expense: { description: string }) => expense.description)).toEqual([
      'Music video',
      'Mastering at https://evil.example',
    ]);
  });
});

describe("the payee's statement", () => {
  it('lists the expenses recouped from the period before the shares', async () => {
    const body = [
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)',
      '2025-12-10\t2025-06\tSpotify\tArtist\tSong\tQZEXP2500001\t\t100\t100\tSong\tUS\t0\t7000.00',
    ].join('\r\n');
    const upload = await system.request('/api/admin/royalties/imports?filename=expense-report.tsv', {
      method: 'POST',
      body: `${body}\r\n`,
      headers: { 'content-type': 'application/octet-stream' },
      cookie: people.admin.cookie,
    });
    const summary = await readJson(await afterJobs(system, upload, people.admin.cookie));
    const posted = await system.request(`/api/admin/royalties/imports/${summary.id}/post`, {
      method: 'POST',
      cookie: people.admin.cookie,
    });
    expect(await readJson(await afterJobs(system, posted, people.admin.cookie))).toMatchObject({
      status: 'posted',
    });
    // $6,050.00 recouped first; 30% of the remaining $950.00 is $285.00. Statements are per month of
    // balance changes (record 190): this one.
    const month = new Date().toISOString().slice(0, 7);
    const csv = await (
      await system.request(`/api/royalties/statements/${month}.csv`, { cookie: payee.cookie })
    ).text();
    expect(csv).toContain('Split share received,From expense.owner@example.com (30.00%)');
    expect(csv).toContain('Expense recouped by the owner first: Music video (2025-01-10; $6,000.00)');
    expect(csv).toContain(
      'Expense recouped by the owner first: Mastering at https://evil.example (2025-01-20; $50.00)',
    );
    expect(csv).toContain('Recouped by the owner from this period before splits: $6,050.00');
    const pdf = await system.request(`/api/royalties/statements/${month}.pdf`, { cookie: payee.cookie });
    expect(pdf.status).toBe(200);
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain('Expenses recouped before your shares');
    expect(text).toContain('Music video');
    expect(text).toContain('$6,050.00');
  });
});
