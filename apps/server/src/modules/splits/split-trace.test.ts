/**
 * Split saves traced (issue 43 finding 10, record 229), over HTTP on the real database: an admin changing
 * another account's split must give a reason (422, nothing saved, no mail); with one, the save is audited
 * with the reason, and exactly the payees whose share changed are mailed (a new payee gets only its
 * invitation); the owner's own saves need no reason and mail no share change, and are audited too.
 */
import { SPLIT_TEXTS } from '@tunedrop/shared/schemas/splits';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
let owner: Person;
let admin: Person;
let releaseId: string;
const KEPT = 'kept.payee@example.com';
const CUT = 'cut.payee@example.com';
const NEW = 'new.payee@example.com';

beforeAll(async () => {
  system = await createTestSystem();
  owner = await system.signedInUser({ plan: 'pro' });
  admin = await system.signedInUser({ roles: ['admin'] });
  releaseId = (await createTestRelease(system, owner.userId, { status: 'live', title: 'Traced Split' }))
    .releaseId;
});
afterAll(async () => {
  await system?.close();
});

const putSplit = (cookie: string, json: unknown) =>
  system.request(`/api/releases/${releaseId}/splits`, { method: 'PUT', cookie, json });
const mailsTo = (to: string) => system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, to));
const versions = async () =>
  (
    (await system.db.execute(
      sql`select count(*)::int as n from split_versions where release_id = ${releaseId}`,
    )) as unknown as { rows: { n: number }[] }
  ).rows[0]?.n;

describe('split saves', () => {
  it('the owner saves without a reason; audited, and no share-change mail', async () => {
    const splits = await readJson(
      await system.request(`/api/releases/${releaseId}/splits`, { cookie: owner.cookie }),
    );
    expect(splits.isReasonRequired).toBe(false);
    const saved = await putSplit(owner.cookie, {
      trackId: null,
      ownerPercent: '70',
      payees: [
        { email: KEPT, percent: '20' },
        { email: CUT, percent: '10' },
      ],
    });
    expect(saved.status).toBe(200);
    const [row] = await system.db.select().from(auditLog).where(eq(auditLog.action, 'splits.save'));
    expect(row).toMatchObject({ actorId: owner.userId, releaseId, subjectUserId: owner.userId });
    expect(row?.before).toMatchObject({ ownerPercent: '100.00', shares: 'none' });
    expect(row?.after).toMatchObject({ ownerPercent: '70.00', target: 'Release default' });
    // Only the invitations.
    for (const to of [KEPT, CUT]) {
      expect((await mailsTo(to)).map((mail) => mail.subject)).toEqual([SPLIT_TEXTS.invitationMailSubject]);
    }
  });

  it('an admin’s change needs a reason: refused with 422 and nothing saved or mailed', async () => {
    const splits = await readJson(
      await system.request(`/api/releases/${releaseId}/splits`, { cookie: admin.cookie }),
    );
    expect(splits.isReasonRequired).toBe(true);
    const count = await versions();
    for (const reason of [undefined, '   ']) {
      const refused = await putSplit(admin.cookie, {
        trackId: null,
        ownerPercent: '100',
        payees: [],
        reason,
      });
      expect(refused.status).toBe(422);
      const body = await readJson(refused);
      expect(body.error.message).toBe(SPLIT_TEXTS.reasonRequired);
      expect(body.error.fields.reason).toBe(SPLIT_TEXTS.reasonRequired);
    }
    expect(await versions()).toBe(count);
    expect(await mailsTo(CUT)).toHaveLength(1);
  });

  it('with a reason: audited with it, and only the payees whose share changed are mailed', async () => {
    const reason = 'Label agreement of 2026-03 ends the second payee’s share';
    const saved = await putSplit(admin.cookie, {
      trackId: null,
      ownerPercent: '75',
      payees: [
        { email: KEPT, percent: '20' },
        { email: NEW, percent: '5' },
      ],
      reason,
    });
    expect(saved.status).toBe(200);
    const [row] = await system.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'splits.save' and ${auditLog.actorId} = ${admin.userId}`);
    expect(row?.after).toMatchObject({ reason, ownerPercent: '75.00' });
    expect(row?.before).toMatchObject({ shares: `${KEPT} 20.00%, ${CUT} 10.00%` });

    const cut = (await mailsTo(CUT)).map((mail) => mail.subject);
    expect(cut).toEqual([SPLIT_TEXTS.invitationMailSubject, SPLIT_TEXTS.shareChangedMailSubject]);
    const [changed] = (await mailsTo(CUT)).filter(
      (mail) => mail.subject === SPLIT_TEXTS.shareChangedMailSubject,
    );
    expect(changed?.textBody).toContain('10.00% → 0%');
    expect(changed?.textBody).toContain('Label agreement of 2026-03');
    // Unchanged share: no mail; new payee: its invitation only.
    expect((await mailsTo(KEPT)).map((mail) => mail.subject)).toEqual([SPLIT_TEXTS.invitationMailSubject]);
    expect((await mailsTo(NEW)).map((mail) => mail.subject)).toEqual([SPLIT_TEXTS.invitationMailSubject]);
  });
});
