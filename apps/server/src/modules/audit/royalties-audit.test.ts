/**
 * Royalty actions in the audit trail (record 191), on the test database (PGlite by default, PostgreSQL
 * with DATABASE_URL): an import, its posting, a code assignment and the deletion of an import are written
 * with the admin, before and after, and the report's, track's and release's names, which stay readable
 * after the report and the release are deleted; the CSV export carries them.
 */
import type { AuditEntry, AuditPage } from '@tunedrop/shared/schemas/audit';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releases } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let artist: { userId: string; email: string; cookie: string };
let releaseId: string;
let trackId: string;

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

function distrokid(rows: string[]) {
  return `${[HEADER, ...rows].join('\r\n')}\r\n`;
}

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  artist = await system.signedInUser({ plan: 'pro', email: 'audited.artist@example.com' });
  const release = await createTestRelease(system, artist.userId, {
    status: 'live',
    title: 'Audited Album',
    releaseDate: '2020-01-01',
    originalReleaseDate: '2020-01-01',
  });
  releaseId = release.releaseId;
  trackId = release.trackIds[0] as string;
});
afterAll(async () => {
  await system.close();
});

const asAdmin = async (path: string, init: { method?: string; json?: unknown } = {}) =>
  afterJobs(
    system,
    await system.request(path, { ...init, cookie: people.admin.cookie }),
    people.admin.cookie,
  );

async function upload(body: string, filename: string) {
  const response = await system.request(`/api/admin/royalties/imports?filename=${filename}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  return readJson(await afterJobs(system, response, people.admin.cookie));
}

async function ofKind(kind: string): Promise<AuditEntry[]> {
  const page: AuditPage = await readJson(await asAdmin(`/api/admin/audit?kind=${kind}&limit=100`));
  return page.items;
}

let postedId: string;

describe('royalty actions', () => {
  it('audits an import with the admin, the file name and its options', async () => {
    const summary = await upload(
      distrokid([
        '2025-04-10\t2025-03\tSpotify\tArtist\tSong\tQZAUD2500001\t\t1000\t100\tSong\tUS\t0\t3.25',
        '2025-04-10\t2025-03\tSpotify\tArtist\tSong\tQZAUD2500001\t\t10\t100\tSong\tDE\t0\t0.10',
      ]),
      'october.tsv',
    );
    expect(summary).toMatchObject({ format: 'distrokid', status: 'staged' });
    postedId = summary.id;
    const [entry] = await ofKind('royalties.import');
    expect(entry).toMatchObject({
      actorId: people.admin.userId,
      actorEmail: people.admin.email,
      subjectType: 'royalty_report',
      subjectId: postedId,
      subjectLabel: 'october.tsv',
      before: null,
      after: { fileName: 'october.tsv', format: 'distrokid' },
    });
  });

  it('audits a code assignment with the track and release names before and after', async () => {
    const response = await asAdmin('/api/admin/royalties/code-mappings', {
      method: 'POST',
      json: { code: 'QZAUD2500001', kind: 'isrc', trackId },
    });
    expect(response.status).toBe(200);
    const [entry] = await ofKind('royalties.code_assign');
    expect(entry).toMatchObject({
      actorEmail: people.admin.email,
      subjectType: 'code',
      subjectLabel: 'ISRC QZAUD2500001',
      releaseId,
      before: { assignedTo: null },
      after: {
        assignedTo: expect.stringContaining('Audited Album (audited.artist@example.com)'),
        rematchedLines: 2,
      },
    });
  });

  it('audits a posting with the report figures', async () => {
    const response = await asAdmin(`/api/admin/royalties/imports/${postedId}/post`, { method: 'POST' });
    expect(response.status).toBeLessThan(300);
    const [entry] = await ofKind('royalties.post');
    expect(entry).toMatchObject({
      actorEmail: people.admin.email,
      subjectLabel: 'october.tsv (2025-03)',
      before: { status: 'staged' },
      after: { status: 'posting', fileName: 'october.tsv', lineCount: 2, currency: 'USD' },
    });
  });

  it('audits the deletion of an import, which keeps its name readable once the report is gone', async () => {
    const summary = await upload(
      distrokid(['2025-05-10\t2025-04\tSpotify\tArtist\tSong\tQZAUD2500001\t\t5\t100\tSong\tUS\t0\t1.00']),
      'mistake.tsv',
    );
    const response = await asAdmin(`/api/admin/royalties/imports/${summary.id}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    const [deletion] = await ofKind('royalties.delete');
    expect(deletion).toMatchObject({
      actorEmail: people.admin.email,
      subjectId: summary.id,
      subjectLabel: 'mistake.tsv (2025-04)',
      before: { fileName: 'mistake.tsv', status: 'staged', lineCount: 1 },
      after: null,
    });
    const imports = await ofKind('royalties.import');
    expect(imports.find((entry) => entry.subjectId === summary.id)?.subjectLabel).toBe('mistake.tsv');
  });

  it('keeps the release name after the release is deleted, on screen and in the CSV', async () => {
    const gone = await createTestRelease(system, artist.userId, { status: 'live', title: 'Gone Single' });
    const response = await asAdmin('/api/admin/royalties/code-mappings', {
      method: 'POST',
      json: { code: '0614141000012', kind: 'upc', releaseId: gone.releaseId },
    });
    expect(response.status).toBe(200);
    // Deleting the release drops its code mapping (cascade); the log keeps what it was called.
    await system.db.delete(releases).where(eq(releases.id, gone.releaseId));
    const [entry] = await ofKind('royalties.code_assign');
    expect(entry).toMatchObject({
      subjectLabel: 'UPC 0614141000012',
      after: { assignedTo: 'Gone Single (audited.artist@example.com)' },
    });
    const csv = await (await asAdmin('/api/admin/audit.csv?kind=royalties')).text();
    const records = parse(csv) as string[][];
    expect(records.slice(1).map((record) => record[1])).toEqual([
      'royalties.code_assign',
      'royalties.delete',
      'royalties.import',
      'royalties.post',
      'royalties.code_assign',
      'royalties.import',
    ]);
    // Columns by their header, so a column added to the export does not shift what is read here.
    const subject = records[0]?.indexOf('Subject') ?? -1;
    const changes = records[0]?.indexOf('Changes') ?? -1;
    const assign = records.find((record) => record[1] === 'royalties.code_assign');
    expect(assign?.[subject]).toBe('UPC 0614141000012');
    expect(assign?.[changes]).toContain('assignedTo: — → Gone Single (audited.artist@example.com)');
    expect(records.find((record) => record[1] === 'royalties.delete')?.[subject]).toBe(
      'mistake.tsv (2025-04)',
    );
  });
});
