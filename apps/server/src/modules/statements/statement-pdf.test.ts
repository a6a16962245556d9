/**
 * The statement PDF (GET /api/royalties/statements/:period.pdf): a real PDF, parsed back with pdf-parse,
 * that carries the period, the artist's stores and tracks and the exact total; nobody else's statement.
 */
import { formatUsdDecimal } from '@tunedrop/shared/money';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';

/** Statements cover the month the report was posted in (record 190): this one, in UTC. */
const MONTH = new Date().toISOString().slice(0, 7);

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let artist: { userId: string; cookie: string; email: string };
let other: { userId: string; cookie: string; email: string };

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  artist = await system.signedInUser({ plan: 'basic' });
  other = await system.signedInUser({ plan: 'pro' });
  await createTestRelease(system, artist.userId, {
    status: 'live',
    releaseDate: '2020-01-01',
    isrcs: ['QZPDF2600001'],
  });
});
afterAll(async () => {
  await system.close();
});

async function pdfText(bytes: Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: bytes });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

describe('statement PDF', () => {
  it('formats exact decimals to the cent', () => {
    expect(formatUsdDecimal('1234.565')).toBe('$1,234.57');
    expect(formatUsdDecimal('0.004')).toBe('$0.00');
    expect(formatUsdDecimal('-0.7')).toBe('-$0.70');
    expect(formatUsdDecimal('12')).toBe('$12.00');
  });

  it('is a real PDF of the period’s earnings, for its owner only', async () => {
    const header =
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
    const rows = [
      '2026-02-10\t2026-01\tSpotify\tA\tT\tQZPDF2600001\t\t1000\t100\tSong\tUS\t0\t3.125',
      '2026-02-10\t2026-01\tDeezer\tA\tT\tQZPDF2600001\t\t10\t100\tSong\tFR\t0\t1.50',
    ];
    const upload = await afterJobs(
      system,
      await system.request('/api/admin/royalties/imports?filename=dk.tsv', {
        method: 'POST',
        body: `${[header, ...rows].join('\n')}\n`,
        headers: { 'content-type': 'application/octet-stream' },
        cookie: people.admin.cookie,
      }),
      people.admin.cookie,
    );
    expect(upload.status).toBe(202);
    const summary = await readJson(upload);
    // The summary names how many balances posting will credit (the admin's confirmation says it).
    expect(summary.matchedArtists).toBe(1);
    const posted = await afterJobs(
      system,
      await system.request(`/api/admin/royalties/imports/${summary.id}/post`, {
        method: 'POST',
        cookie: people.admin.cookie,
      }),
      people.admin.cookie,
    );
    expect(await readJson(posted)).toMatchObject({ status: 'posted' });

    const response = await system.request(`/api/royalties/statements/${MONTH}.pdf`, {
      cookie: artist.cookie,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain(`tunedrop-statement-${MONTH}.pdf`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(bytes);
    expect(text).toContain(`Period: ${MONTH}`);
    expect(text).toContain('Sales months: 2026-01');
    // 4.625 credited as $4.62: the rows add up to it, Spotify's 3.125 shown as $3.12.
    expect(text).toMatch(/Gross earnings \(2 lines\)\s+1010\s+\$4\.62/);
    expect(text).toMatch(/Closing balance\s+\$4\.62/);
    expect(text).toContain('Spotify');
    expect(text).toContain('Deezer');
    expect(text).toContain('QZPDF2600001');
    expect(text).toContain('$3.12');

    const missing = await system.request('/api/royalties/statements/2025-12.pdf', { cookie: artist.cookie });
    expect(missing.status).toBe(404);
    const foreign = await system.request(`/api/royalties/statements/${MONTH}.pdf`, { cookie: other.cookie });
    expect(foreign.status).toBe(404);
    const malformed = await system.request('/api/royalties/statements/2026-13.pdf', {
      cookie: artist.cookie,
    });
    expect(malformed.status).toBe(404);
  });
});
