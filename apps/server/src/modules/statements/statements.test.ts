/**
 * Statements with titles people and stores really send (issue 22, findings 5 and 12): the CSV keeps hostile
 * titles as text and amounts as numbers; the PDF shows titles in any script and emoji as written, each row
 * on one line, whatever separator or control character a title holds.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracks } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { STATEMENT_CSV_HEADER } from './statement-csv';

/** Statements cover the month the report was posted in (record 190): this one, in UTC. */
const MONTH = new Date().toISOString().slice(0, 7);

let system: TestSystem;
let artist: { userId: string; cookie: string; email: string };

const RELEASE_TITLE = "-1+1+cmd|' /C calc'!A0";
const HOSTILE_STORE = '=HYPERLINK("https://evil.example/claim","Statement")';
/** Track titles as an artist typed them, with the amount each earns (all different, to find the rows). */
const TITLES: [string, string][] = [
  ['Café Déjà Vu', '1.01'],
  ['Звезда по имени Солнце', '1.02'],
  ['Ωμέγα Λάμδα', '1.03'],
  ['سلام عليكم', '1.04'],
  ['שלום עולם', '1.05'],
  ['नमस्ते', '1.06'],
  ['夜の音楽', '1.07'],
  ['🎵 Dance 🔥', '1.08'],
  ['Line\u2028Break', '1.09'],
  ['Over\u202Eride\u0085Next', '1.10'],
];
/** The track that also has a refund line (-$0.25) from a store with a hostile name. */
const REFUND_TRACK = 2;
const isrc = (index: number) => `QZSCR26${String(index).padStart(5, '0')}`;

beforeAll(async () => {
  system = await createTestSystem();
  const people = await staff(system);
  artist = await system.signedInUser({ plan: 'basic' });
  const release = await createTestRelease(system, artist.userId, {
    status: 'live',
    title: RELEASE_TITLE,
    releaseDate: '2020-01-01',
    trackCount: TITLES.length,
    isrcs: TITLES.map((_, index) => isrc(index)),
  });
  // Set straight in the database: the text rule refuses C0/C1 controls at input, but a catalogue import
  // or an older row may still hold a separator or a bidi override.
  for (const [index, [title]] of TITLES.entries()) {
    await system.db
      .update(tracks)
      .set({ title })
      .where(eq(tracks.id, release.trackIds[index] as string));
  }
  const header =
    'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
  const rows = TITLES.map(
    ([, amount], index) =>
      `2026-02-10\t2026-01\tSpotify\tA\tT\t${isrc(index)}\t\t10\t100\tSong\tUS\t0\t${amount}`,
  );
  rows.push(
    `2026-02-10\t2026-01\t${HOSTILE_STORE}\tA\tT\t${isrc(REFUND_TRACK)}\t\t-1\t100\tSong\tUS\t0\t-0.25`,
  );
  const upload = await afterJobs(
    system,
    await system.request('/api/admin/royalties/imports?filename=scripts.tsv', {
      method: 'POST',
      body: `${[header, ...rows].join('\n')}\n`,
      headers: { 'content-type': 'application/octet-stream' },
      cookie: people.admin.cookie,
    }),
    people.admin.cookie,
  );
  expect(upload.status).toBe(202);
  const summary = await readJson(upload);
  const posted = await afterJobs(
    system,
    await system.request(`/api/admin/royalties/imports/${summary.id}/post`, {
      method: 'POST',
      cookie: people.admin.cookie,
    }),
    people.admin.cookie,
  );
  expect(await readJson(posted)).toMatchObject({ status: 'posted' });
});
afterAll(async () => {
  await system.close();
});

describe('statement CSV', () => {
  it('writes a hostile release title and store as text and refunds as numbers', async () => {
    const response = await system.request(`/api/royalties/statements/${MONTH}.csv`, {
      cookie: artist.cookie,
    });
    expect(response.status).toBe(200);
    const records: string[][] = parse(await response.text());
    expect(records[0]).toEqual([...STATEMENT_CSV_HEADER]);
    const refund = records.find((record) => record[4]?.includes('HYPERLINK'));
    expect(refund).toEqual([
      'Gross earnings',
      '',
      '',
      '2026-01',
      `'${HOSTILE_STORE}`,
      'US',
      'Refund',
      `'${RELEASE_TITLE}`,
      '',
      'Ωμέγα Λάμδα',
      isrc(REFUND_TRACK),
      '-1',
      '-25',
      '-0.25',
    ]);
    const earnings = records.filter((record) => record[0] === 'Gross earnings');
    expect(new Set(earnings.map((record) => record[7]))).toEqual(new Set([`'${RELEASE_TITLE}`]));
  });
});

/**
 * The PDF's text layer as poppler's pdftotext reads it, one string per printed line (-layout keeps a table
 * row on one line). pdftotext wraps right-to-left text in embedding marks (U+202B…U+202C); they are dropped.
 */
function pdfLines(bytes: Uint8Array): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-'));
  try {
    const file = path.join(dir, 'statement.pdf');
    fs.writeFileSync(file, bytes);
    const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    return text.replace(/[\u202A-\u202E]/g, '').split('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('statement PDF', () => {
  it('shows titles in every script and emoji as written, one row a line', async () => {
    const response = await system.request(`/api/royalties/statements/${MONTH}.pdf`, {
      cookie: artist.cookie,
    });
    expect(response.status).toBe(200);
    const lines = pdfLines(new Uint8Array(await response.arrayBuffer()));
    for (const [index, [title, amount]] of TITLES.entries()) {
      // A line or paragraph separator shows as a space, a bidi override or C1 control not at all.
      const shown = title.replace('\u2028', ' ').replace('\u202E', '').replace('\u0085', ' ');
      const row = lines.find((line) => line.includes(isrc(index)));
      expect(row, `the row of ${JSON.stringify(title)}`).toBeDefined();
      // Right-to-left titles read right to left, so their ISRC in parentheses stands at their left.
      const isRtl = /[\p{Script=Arabic}\p{Script=Hebrew}]/u.test(title);
      expect(row).toContain(isRtl ? `(${isrc(index)}) ${shown}` : `${shown} (${isrc(index)})`);
      // Units and amount end the same line (the refund track sold 10 and returned 1 for $0.25).
      const [units, total] = index === REFUND_TRACK ? ['9', '0.78'] : ['10', amount];
      expect(row?.split(/\s{2,}/).slice(-2)).toEqual([units, `$${total}`]);
    }
    // Nothing of a title spilled onto a line of its own.
    const byTrack = lines.slice(lines.findIndex((line) => /by track/i.test(line)));
    const rows = byTrack.filter((line) => line.trim() !== '' && !/by track|Name\s+Units/i.test(line));
    expect(rows.slice(0, TITLES.length).every((line) => /\(QZSCR26\d{5}\)/.test(line))).toBe(true);
  });
});
