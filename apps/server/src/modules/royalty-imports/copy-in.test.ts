/**
 * COPY staging (decision 166) on the test database (PGlite, or PostgreSQL with DATABASE_URL): values land
 * in their own columns whatever the order of the column list, text with tabs, line breaks and
 * backslashes arrives as written, and a staged sales line keeps each field in its column.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../lib/sql';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { type CopyColumn, copyRow, openCopySink } from './copy-in';
import type { ParsedLine } from './parse-common';
import { STAGED_COLUMNS } from './stage-rows';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
  await system.db.execute(
    sql`create table copy_probe (id integer primary key, label text, amount numeric, flag boolean, note text)`,
  );
});
afterAll(async () => {
  await system.close();
});

type Probe = { id: number; label: string; amount: string; flag: boolean; note: string | null };
const PROBE_COLUMNS: CopyColumn<Probe>[] = [
  { column: 'id', value: (row) => row.id },
  { column: 'label', value: (row) => row.label },
  { column: 'amount', value: (row) => row.amount },
  { column: 'flag', value: (row) => row.flag },
  { column: 'note', value: (row) => row.note },
];

async function copyAndRead(columns: readonly CopyColumn<Probe>[], probes: Probe[]) {
  await system.db.execute(sql`truncate copy_probe`);
  const sink = await openCopySink(system.db, 'copy_probe', columns);
  try {
    await sink.write(probes.map((probe) => copyRow(columns, probe)).join(''));
  } finally {
    await sink.close();
  }
  return rows<{ id: number; label: string; amount: string; flag: boolean; note: string | null }>(
    system.db,
    sql`select id, label, amount::text as amount, flag, note from copy_probe order by id`,
  );
}

const PROBES: Probe[] = [
  { id: 1, label: 'tab\there', amount: '12.3456', flag: true, note: null },
  { id: 2, label: 'line\nbreak and \\ backslash', amount: '-0.01', flag: false, note: 'carriage\rreturn' },
  { id: 3, label: '\\N is text here', amount: '0', flag: true, note: '' },
];

describe('COPY rows from one column list', () => {
  it('puts every value in its own column, in whatever order the list names them', async () => {
    const forward = await copyAndRead(PROBE_COLUMNS, PROBES);
    expect(forward).toEqual(PROBES);
    const reversed = await copyAndRead([...PROBE_COLUMNS].reverse(), PROBES);
    expect(reversed).toEqual(PROBES);
    const rotated = await copyAndRead([...PROBE_COLUMNS.slice(2), ...PROBE_COLUMNS.slice(0, 2)], PROBES);
    expect(rotated).toEqual(PROBES);
  });

  it('reports the database refusing a row, and the sink can be closed after it', async () => {
    const sink = await openCopySink(system.db, 'copy_probe', PROBE_COLUMNS);
    await expect(
      sink.write(copyRow(PROBE_COLUMNS, { ...PROBES[0], amount: 'not a number' } as Probe)),
    ).rejects.toThrow(/numeric/);
    await sink.close();
    // The pool still serves queries afterwards.
    const [count] = await rows<{ n: number | string }>(system.db, sql`select count(*) as n from copy_probe`);
    expect(count).toBeDefined();
  });

  it('stages each field of a sales line in the column of that name', async () => {
    const importId = '00000000-0000-4000-8000-000000000001';
    const line: ParsedLine = {
      lineNo: 7,
      lineKey: '7/S-1',
      summaryId: 'SUM-1',
      isrc: 'GBAHT0900445',
      upc: '0602537000000',
      title: 'Orinoco Flow',
      artist: 'Enya',
      store: 'Spotify',
      country: 'IE',
      period: '2025-01',
      usageType: 'OnDemandStream',
      units: '42',
      amount: null,
      royaltyBearing: false,
    };
    const sink = await openCopySink(system.db, 'royalty_import_lines', STAGED_COLUMNS);
    try {
      await sink.write(
        copyRow(STAGED_COLUMNS, {
          importId,
          line,
          isrc: 'GBAHT0900445',
          upc: '602537000000',
          target: undefined,
          amount: '1.2345',
        }),
      );
    } finally {
      await sink.close();
    }
    const [staged] = await rows<Record<string, unknown>>(
      system.db,
      sql`select line_no, line_key, summary_id, isrc, upc, title, artist, store, country, period, usage_type,
                 units::text as units, amount::text as amount, royalty_bearing, track_id
            from royalty_import_lines where import_id = ${importId}`,
    );
    expect({ ...staged, lineNo: Number(staged?.lineNo) }).toEqual({
      lineNo: 7,
      lineKey: '7/S-1',
      summaryId: 'SUM-1',
      isrc: 'GBAHT0900445',
      upc: '602537000000',
      title: 'Orinoco Flow',
      artist: 'Enya',
      store: 'Spotify',
      country: 'IE',
      period: '2025-01',
      usageType: 'OnDemandStream',
      units: '42',
      amount: '1.2345',
      royaltyBearing: false,
      trackId: null,
    });
  });
});
