/**
 * The audit trail's API on the test database (PGlite by default, PostgreSQL with DATABASE_URL), record
 * 191: settings saves and delivery target changes are written with the actor and only the changed
 * fields before and after; the log filters by kind (or a group), actor and day, pages, exports CSV, and
 * keeps names after the target is removed.
 */
import type { AuditEntry, AuditPage } from '@tunedrop/shared/schemas/audit';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { auditLog, releases } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { freePort } from '../../test-support/sftp';
import { cliAuditActor, recordAudit } from '.';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;

const SETTINGS = {
  isrcRegistrant: 'QZ-ABC',
  upcPrefix: '0614141',
  ddexSenderPartyId: 'PADPIDA2013042401U',
  ddexSenderName: 'Label One',
};

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
});
afterAll(async () => {
  await system.close();
});

const asAdmin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: people.admin.cookie });

async function auditPage(query: Record<string, string> = {}): Promise<AuditPage> {
  const response = await asAdmin(`/api/admin/audit?${new URLSearchParams(query)}`);
  expect(response.status).toBe(200);
  return readJson(response);
}

const ofKind = async (kind: string) => (await auditPage({ kind, limit: '100' })).items;

describe('settings saves', () => {
  it('writes one entry per save with the admin and only the keys that changed', async () => {
    expect((await asAdmin('/api/admin/settings', { method: 'PUT', json: SETTINGS })).status).toBe(200);
    expect(
      (
        await asAdmin('/api/admin/settings', {
          method: 'PUT',
          json: { ...SETTINGS, ddexSenderName: 'Label Two' },
        })
      ).status,
    ).toBe(200);
    // Saving the same values again changes nothing and writes nothing.
    await asAdmin('/api/admin/settings', {
      method: 'PUT',
      json: { ...SETTINGS, ddexSenderName: 'Label Two' },
    });
    const entries = await ofKind('settings.update');
    expect(entries).toHaveLength(2);
    const [second, first] = entries as [AuditEntry, AuditEntry];
    expect(second).toMatchObject({
      actorId: people.admin.userId,
      actorEmail: people.admin.email,
      action: 'settings.update',
      subjectType: 'setting',
      subjectLabel: 'Delivery codes and DDEX sender',
      before: { DDEX_SENDER_NAME: 'Label One' },
      after: { DDEX_SENDER_NAME: 'Label Two' },
    });
    expect(first.before).toMatchObject({ ISRC_REGISTRANT: null, UPC_PREFIX: null });
    expect(first.after).toMatchObject({ ISRC_REGISTRANT: 'QZ-ABC', UPC_PREFIX: '0614141' });
  });

  it('audits the support time zone and the payee minimum cards of /admin/settings', async () => {
    expect(
      (await asAdmin('/api/admin/support/settings', { method: 'PUT', json: { timeZone: 'Europe/Berlin' } }))
        .status,
    ).toBe(200);
    expect(
      (
        await asAdmin('/api/admin/wallet/payee-settings', {
          method: 'PUT',
          json: { minimumWithdrawal: '25.00' },
        })
      ).status,
    ).toBe(200);
    const labels = (await ofKind('settings.update')).map((entry) => [entry.subjectLabel, entry.after]);
    expect(labels).toContainEqual(['Support time zone', expect.objectContaining({})]);
    const payee = (await ofKind('settings.update')).find(
      (e) => e.subjectLabel === 'Payee minimum withdrawal',
    );
    expect(Object.values(payee?.after as Record<string, string>)).toEqual(['2500']);
  });
});

describe('delivery targets', () => {
  let targetId: string;

  it('audits add, edit, disable, enable and remove with the target name and no secret', async () => {
    const added = await asAdmin('/api/admin/delivery/targets', {
      method: 'POST',
      json: {
        name: 'Audited Store',
        url: 'sftp://label:s3cret-pass@127.0.0.1:41501/in',
        dpid: 'PADPIDA2009101501Y',
        platforms: 'all',
        profile: 'release',
        // Nothing listens there: an enabled target would be tested and refused.
        enabled: false,
      },
    });
    expect(added.status).toBe(201);
    targetId = (await readJson(added)).id;
    const patch = (json: unknown) =>
      asAdmin(`/api/admin/delivery/targets/${targetId}`, { method: 'PATCH', json });
    expect((await patch({ platforms: ['spotify'] })).status).toBe(200);
    expect((await patch({ enabled: true })).status).toBe(200);
    expect((await patch({ enabled: false })).status).toBe(200);
    expect((await patch({ url: 'sftp://label:other-pass@127.0.0.1:41501/in' })).status).toBe(200);
    expect((await asAdmin(`/api/admin/delivery/targets/${targetId}`, { method: 'DELETE' })).status).toBe(200);

    const entries = (await auditPage({ kind: 'delivery.target', limit: '100' })).items.reverse();
    expect(entries.map((entry) => entry.action)).toEqual([
      'delivery.target.add',
      'delivery.target.edit',
      'delivery.target.enable',
      'delivery.target.disable',
      'delivery.target.edit',
      'delivery.target.remove',
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        actorEmail: people.admin.email,
        subjectType: 'delivery_target',
        subjectId: targetId,
        // The name stays on every entry after the target is gone.
        subjectLabel: 'Audited Store',
      });
      expect(JSON.stringify(entry)).not.toContain('s3cret');
      expect(JSON.stringify(entry)).not.toContain('other-pass');
    }
    expect(entries[0]?.after).toMatchObject({ name: 'Audited Store', platforms: 'all', enabled: false });
    expect(entries[1]).toMatchObject({ before: { platforms: 'all' }, after: { platforms: ['spotify'] } });
    expect(entries[2]).toMatchObject({ before: { enabled: false }, after: { enabled: true } });
    expect(entries[4]).toMatchObject({ after: { credentials: 'replaced' } });
    expect(entries[5]).toMatchObject({ before: { name: 'Audited Store' }, after: { removed: true } });
  });
});

describe('names stored at write time', () => {
  it('a writer that names no subject stores the release title, which outlives the release', async () => {
    const artist = await system.signedInUser({ plan: 'pro' });
    const { releaseId } = await createTestRelease(system, artist.userId, { title: 'Short-lived EP' });
    await recordAudit(
      system.db,
      { id: null, email: 'exporter@example.com' },
      {
        kind: 'release.export',
        releaseId,
        subjectUserId: artist.userId,
      },
    );
    await system.db.delete(releases).where(eq(releases.id, releaseId));
    const [entry] = await ofKind('release.export');
    expect(entry).toMatchObject({
      subjectType: 'release',
      subjectId: releaseId,
      subjectLabel: 'Short-lived EP',
    });
  });
});

describe('the command line', () => {
  const cli = (name: string, positionals: string[], flags: Record<string, string | boolean> = {}) => {
    const command = cliCommands[name];
    if (!command) throw new Error(`${name} is not registered`);
    return command.run(system, positionals, flags);
  };

  it('audits settings:set and delivery:target:add/enable/remove as cli:<user>', async () => {
    await cli('settings:set', ['DDEX_SENDER_NAME', 'Label Three']);
    const url = `sftp://store@127.0.0.1:${await freePort()}/in`;
    await cli('delivery:target:add', [], {
      name: 'CLI Store',
      url,
      dpid: 'PADPIDA2009101501Y',
      platforms: 'spotify',
      disabled: true,
    });
    await cli('delivery:target:enable', ['CLI Store']);
    await cli('delivery:target:remove', ['CLI Store']);
    const entries = (await auditPage({ user: cliAuditActor().email, limit: '100' })).items.reverse();
    expect(entries.map((entry) => [entry.action, entry.subjectLabel])).toEqual([
      ['settings.update', 'DDEX_SENDER_NAME'],
      ['delivery.target.add', 'CLI Store'],
      ['delivery.target.enable', 'CLI Store'],
      ['delivery.target.remove', 'CLI Store'],
    ]);
    expect(entries[0]).toMatchObject({
      actorId: null,
      before: { DDEX_SENDER_NAME: 'Label Two' },
      after: { DDEX_SENDER_NAME: 'Label Three' },
    });
  }, 60_000);
});

describe('reading the log', () => {
  it('is for admins only, CSV too', async () => {
    for (const path of ['/api/admin/audit', '/api/admin/audit.csv']) {
      expect((await system.request(path, { cookie: people.moderator.cookie })).status).toBe(403);
      expect((await system.request(path, { cookie: people.artist.cookie })).status).toBe(403);
      expect((await system.request(path)).status).toBe(401);
    }
  });

  it('filters by kind group, actor and day, and pages newest first', async () => {
    const all = await auditPage({ limit: '100' });
    expect(all.items.length).toBeGreaterThanOrEqual(9);
    const groups = await auditPage({ kind: 'settings', limit: '100' });
    expect(groups.items.every((entry) => entry.action.startsWith('settings.'))).toBe(true);
    // A kind is matched whole: "settings.up" is no kind and no group.
    expect((await auditPage({ kind: 'settings.up' })).items).toHaveLength(0);
    const byActor = await auditPage({ user: people.admin.email, limit: '100' });
    expect(byActor.items).toEqual(all.items.filter((entry) => entry.actorEmail === people.admin.email));
    expect((await auditPage({ user: people.moderator.email })).items).toHaveLength(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await auditPage({ from: today, to: today, limit: '100' })).items).toHaveLength(all.items.length);
    expect((await auditPage({ to: '2000-01-01' })).items).toHaveLength(0);
    expect((await auditPage({ from: '2999-01-01' })).items).toHaveLength(0);
    const first = await auditPage({ limit: '2' });
    expect(first.items).toHaveLength(2);
    const second = await auditPage({ limit: '2', cursor: first.nextCursor ?? '' });
    expect(second.items[0]?.id).toBe(all.items[2]?.id);
    const invalid = await asAdmin('/api/admin/audit?kind=DROP%20TABLE');
    expect(invalid.status).toBe(422);
  });

  it('exports the filtered log as CSV: kind, label, actor, subject name, changes and JSON', async () => {
    const response = await asAdmin(
      `/api/admin/audit.csv?${new URLSearchParams({ kind: 'delivery.target', user: people.admin.email })}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toContain('audit-log-');
    const [header, ...records] = parse(await response.text()) as string[][];
    expect(header).toEqual([
      'When (UTC)',
      'Kind',
      'Action',
      'Actor',
      'Actor name',
      'For account',
      'Subject type',
      'Subject',
      'Changes',
      'Before (JSON)',
      'After (JSON)',
    ]);
    expect(records).toHaveLength(6);
    const disable = records.find((record) => record[1] === 'delivery.target.disable');
    expect(disable).toEqual([
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      'delivery.target.disable',
      'Disabled a delivery target',
      people.admin.email,
      expect.any(String),
      '',
      'delivery_target',
      'Audited Store',
      'enabled: true → false',
      '{"enabled":true}',
      '{"enabled":false}',
    ]);
  });

  it('streams an export larger than one page, every row once', async () => {
    await recordAudit(system.db, cliAuditActor(), {
      kind: 'finance.fee',
      subject: { type: 'plan', id: 'basic', label: 'Basic plan' },
      before: { feePercent: '0' },
      after: { feePercent: '1' },
    });
    // 1,202 more in one statement, one second apart, so paging by (time, id) is exercised.
    await system.db.insert(auditLog).values(
      Array.from({ length: 1_202 }, (_, i) => ({
        actorEmail: 'cli:bulk',
        action: 'finance.fee',
        subjectType: 'plan',
        subjectLabel: `Basic plan ${i}`,
        before: { feePercent: String(i) },
        after: { feePercent: String(i + 1) },
        createdAt: new Date(Date.now() - (i % 600) * 1000),
      })),
    );
    const response = await asAdmin('/api/admin/audit.csv?kind=finance.fee');
    const [, ...records] = parse(await response.text()) as string[][];
    expect(records).toHaveLength(1_203);
    expect(new Set(records.map((record) => record[7])).size).toBe(1_203);
    expect(records.filter((record) => /^cli:/.test(record[3] ?? ''))).toHaveLength(1_203);
  });
});
