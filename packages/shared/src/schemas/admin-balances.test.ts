/** The bulk balance CSV parser (spec 02 §5), as the browser preview and the server use it. */
import { describe, expect, it } from 'vitest';
import {
  BALANCE_TEXTS,
  CSV_REASONS,
  isCsvFileName,
  manualBalanceNote,
  parseBalanceCsv,
} from './admin-balances';

const ok = (text: string) => {
  const result = parseBalanceCsv(text);
  if (!result.ok) throw new Error(`expected a parse, got: ${result.reason}`);
  return result;
};

describe('parseBalanceCsv: whole-file rules', () => {
  it('rejects an empty file, or one of blank lines', () => {
    expect(parseBalanceCsv('')).toEqual({ ok: false, reason: CSV_REASONS.empty, errors: [] });
    expect(parseBalanceCsv('\r\n\n  \n')).toEqual({ ok: false, reason: CSV_REASONS.empty, errors: [] });
    expect(parseBalanceCsv('\uFEFF')).toMatchObject({ ok: false, reason: CSV_REASONS.empty });
  });

  it('rejects a header with no data rows', () => {
    expect(parseBalanceCsv('user_id_or_email,new_balance\n')).toEqual({
      ok: false,
      reason: CSV_REASONS.headerOnly,
      errors: [],
    });
    expect(parseBalanceCsv('user_id_or_email,new_balance\r\n\r\n,\r\n')).toMatchObject({
      ok: false,
      reason: CSV_REASONS.headerOnly,
    });
  });

  it('needs a header naming a user, email or id column and a balance or amount column', () => {
    expect(parseBalanceCsv('name,value\na@example.com,1\n')).toMatchObject({
      ok: false,
      reason: CSV_REASONS.badHeader,
    });
    expect(parseBalanceCsv('email,total\na@example.com,1\n')).toMatchObject({
      ok: false,
      reason: CSV_REASONS.badHeader,
    });
    // A data row where the header should be is not a header.
    expect(parseBalanceCsv('a@example.com,12.50\n')).toMatchObject({
      ok: false,
      reason: CSV_REASONS.badHeader,
    });
    expect(ok('Email,Amount\na@example.com,1\n').rows).toHaveLength(1);
    expect(ok('ID;x,Balance\n3f1b,1\n').rows[0]).toMatchObject({ identifier: '3f1b', kind: 'id' });
  });

  it('takes the columns the header names, in any order', () => {
    const result = ok('note,new_balance,user_id_or_email\nhello,10.5,A@Example.com\n');
    expect(result.rows).toEqual([
      { line: 2, identifier: 'a@example.com', kind: 'email', newBalanceCents: 1050 },
    ]);
  });

  it('fails when no valid rows remain, and still lists the errors', () => {
    const result = parseBalanceCsv('user_id_or_email,new_balance\na@example.com,-1\n,5\n');
    expect(result).toEqual({
      ok: false,
      reason: CSV_REASONS.noValidRows,
      errors: [
        'Line 2: Balance -1 is negative; balances cannot be below 0.',
        'Line 3: Missing user id or email.',
      ],
    });
  });
});

describe('parseBalanceCsv: rows', () => {
  it('reads emails (lower-cased) and user ids, with amounts in exact cents', () => {
    const result = ok(
      'user_id_or_email,new_balance\nArtist@Example.com,125.50\n3f9b8c1e-2d4a-4b6c-8e0f-1a2b3c4d5e6f,0\nb@example.com,0.1\nc@example.com,7.\n',
    );
    expect(result.errors).toEqual([]);
    expect(result.rows).toEqual([
      { line: 2, identifier: 'artist@example.com', kind: 'email', newBalanceCents: 12_550 },
      { line: 3, identifier: '3f9b8c1e-2d4a-4b6c-8e0f-1a2b3c4d5e6f', kind: 'id', newBalanceCents: 0 },
      { line: 4, identifier: 'b@example.com', kind: 'email', newBalanceCents: 10 },
      { line: 5, identifier: 'c@example.com', kind: 'email', newBalanceCents: 700 },
    ]);
  });

  it("reports negative and non-numeric balances as 'Line N: ...' and keeps the good rows", () => {
    const result = ok(
      [
        'user_id_or_email,new_balance',
        'a@example.com,-5.00',
        'b@example.com,abc',
        'c@example.com,$10',
        'd@example.com,1e3',
        'e@example.com,12.345',
        'f@example.com,',
        'g@example.com',
        'h@example.com,NaN',
        'ok@example.com,20',
        'i@example.com,-0',
      ].join('\n'),
    );
    expect(result.rows.map((row) => [row.line, row.identifier, row.newBalanceCents])).toEqual([
      [10, 'ok@example.com', 2000],
      [11, 'i@example.com', 0],
    ]);
    expect(result.errors).toEqual([
      'Line 2: Balance -5.00 is negative; balances cannot be below 0.',
      'Line 3: Balance "abc" is not a number.',
      'Line 4: Balance "$10" is not a number.',
      'Line 5: Balance "1e3" is not a number.',
      'Line 6: Balance "12.345" has more than 2 decimals or is too large.',
      'Line 7: Missing new balance.',
      'Line 8: Expected at least 2 values: a user id or email and a new balance.',
      'Line 9: Balance "NaN" is not a number.',
    ]);
  });

  it('strips a byte order mark and accepts CRLF and lone CR line ends', () => {
    expect(
      ok('\uFEFFuser_id_or_email,new_balance\r\na@example.com,1.00\r\nb@example.com,2\r\n').rows,
    ).toHaveLength(2);
    expect(
      ok('user_id_or_email,new_balance\ra@example.com,1\rb@example.com,2').rows.map((row) => row.line),
    ).toEqual([2, 3]);
  });

  it('reads quoted fields: commas, doubled quotes, spaces, and line breaks that keep the line numbers right', () => {
    const result = ok(
      [
        '"user_id_or_email","new_balance","note"',
        '"a@example.com","10.00","with, a comma"',
        '"b@example.com",20,"say ""hi"""',
        '"c@example.com",30,"two',
        'lines"',
        'd@example.com,"1,000.00"',
        '" e@example.com ",5',
      ].join('\r\n'),
    );
    expect(result.rows.map((row) => [row.line, row.identifier, row.newBalanceCents])).toEqual([
      [2, 'a@example.com', 1000],
      [3, 'b@example.com', 2000],
      [4, 'c@example.com', 3000],
      [7, 'e@example.com', 500],
    ]);
    expect(result.errors).toEqual(['Line 6: Balance "1,000.00" is not a number.']);
  });

  it('reads mixed line ends and a quote left open at the end of the file', () => {
    const result = ok('email,amount\r\na@example.com,1\nb@example.com,2\rc@example.com,"3');
    expect(result.rows.map((row) => [row.line, row.identifier, row.newBalanceCents])).toEqual([
      [2, 'a@example.com', 100],
      [3, 'b@example.com', 200],
      [4, 'c@example.com', 300],
    ]);
  });

  it('reports a user listed twice', () => {
    const result = ok('email,amount\na@example.com,1\nA@example.com,2\n');
    expect(result.rows).toHaveLength(1);
    expect(result.errors).toEqual(['Line 3: A@example.com is already on line 2.']);
  });

  it('parses a 10,000-row file exactly', () => {
    const lines = ['user_id_or_email,new_balance'];
    let expectedTotal = 0;
    for (let index = 0; index < 10_000; index += 1) {
      const cents = (index * 7919) % 1_000_000;
      expectedTotal += cents;
      lines.push(
        `artist${index}@example.com,${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
      );
    }
    const result = ok(`${lines.join('\r\n')}\r\n`);
    expect(result.rows).toHaveLength(10_000);
    expect(result.errors).toEqual([]);
    expect(result.rows.reduce((sum, row) => sum + row.newBalanceCents, 0)).toBe(expectedTotal);
    expect(result.rows.at(-1)?.line).toBe(10_001);
  });

  it('refuses more rows than the limit', () => {
    const body = Array.from({ length: 50_001 }, (_, index) => `u${index}@example.com,1`).join('\n');
    expect(parseBalanceCsv(`email,amount\n${body}`)).toMatchObject({
      ok: false,
      reason: CSV_REASONS.tooManyRows,
    });
  });
});

describe('helpers', () => {
  it('accepts only .csv file names', () => {
    expect(isCsvFileName('balances.csv')).toBe(true);
    expect(isCsvFileName('BALANCES.CSV')).toBe(true);
    expect(isCsvFileName('balances.xlsx')).toBe(false);
    expect(isCsvFileName('balances.csv.exe')).toBe(false);
  });

  it('writes the manual note of spec 02 §3', () => {
    expect(manualBalanceNote(0)).toBe('Manual balance update via admin panel');
    expect(manualBalanceNote(1050)).toBe(
      'Manual balance update via admin panel (+$10.50 added to total earnings)',
    );
  });

  it('offers a template that parses', () => {
    expect(BALANCE_TEXTS.template.startsWith('user_id_or_email,new_balance')).toBe(true);
    expect(ok(BALANCE_TEXTS.template).rows).toHaveLength(2);
  });
});
