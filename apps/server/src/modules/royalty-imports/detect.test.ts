/**
 * The detect step (record 278): a report's format and a DSR's message from the head kept as the upload
 * streamed in, reading nothing of the file (a path that does not exist proves it); a head cut short before
 * the lines it needs falls back to the head of the file; the job's parse reads the file once.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectReport } from './detect';
import { peekFirstLine, splitLines } from './source';

const MISSING = path.join(os.tmpdir(), 'tunedrop-detect-no-such-file.report');
const DISTROKID =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const HEAD_RECORD =
  'HEAD\tdsrf/1.1/1.4.1/1.3\tBasicAudioProfile\t1.3\tMSG-7\t2026-04-10T09:00:00Z\t3\t3\t2026-01-01\t2026-03-31\tPADPIDA99999999013\tStore\tStore\tPADPIDA99999999021\tTunedrop\t';
const whole = (text: string) => ({ bytes: Buffer.from(text), isWhole: true });

describe('detecting a report from its head', () => {
  it('finds a statement and a DSR with its message without reading the file', async () => {
    expect(
      await detectReport(
        { filePath: MISSING, head: whole(`\r\n  \n${DISTROKID}\r\nrow`) },
        { format: 'auto' },
      ),
    ).toEqual({ format: 'distrokid', message: null });
    expect(
      await detectReport(
        { filePath: MISSING, head: whole(`\n#HEAD\tcomment\n\n${HEAD_RECORD}\nSY01`) },
        { format: 'auto' },
      ),
    ).toEqual({
      format: 'dsr',
      message: { messageId: 'MSG-7', sender: 'PADPIDA99999999013', fileNumber: 3 },
    });
  });

  it('refuses a header no format fits, as the parse would', async () => {
    await expect(
      detectReport({ filePath: MISSING, head: whole('a,b,c\n1,2,3\n') }, { format: 'auto' }),
    ).rejects.toThrow(/matches no known statement/);
    await expect(
      detectReport({ filePath: MISSING, head: whole(`${DISTROKID}\n`) }, { format: 'dsr' }),
    ).rejects.toThrow(/not a DSR report/);
  });

  it('reads the head of the file when the kept head ends before the first line does', async () => {
    const file = path.join(os.tmpdir(), `tunedrop-detect-${process.pid}.tsv`);
    await writeFile(file, `${DISTROKID}\nrow\n`);
    const cut = { bytes: Buffer.from(DISTROKID.slice(0, 40)), isWhole: false };
    expect(await detectReport({ filePath: file, head: cut }, { format: 'auto' })).toEqual({
      format: 'distrokid',
      message: null,
    });
    await expect(detectReport({ filePath: MISSING, head: cut }, { format: 'auto' })).rejects.toThrow(
      /ENOENT/,
    );
  });
});

describe('peeking at the first line', () => {
  it('gives the first line that is not blank and every line again, numbered, from one read', async () => {
    const text = '\n\n \n \nheader\nrow 1\n\nrow 2';
    const { first, lines } = await peekFirstLine(splitLines([Buffer.from(text)]));
    expect(first).toBe('header');
    const again = [];
    for await (const line of lines) again.push(line);
    const direct = [];
    for await (const line of splitLines([Buffer.from(text)])) direct.push(line);
    expect(again).toEqual(direct);
  });

  it('gives an empty first line for a blank file, and its lines', async () => {
    const { first, lines } = await peekFirstLine(splitLines([Buffer.from('\n  \n')]));
    expect(first).toBe('');
    const again = [];
    for await (const line of lines) again.push(line);
    expect(again).toEqual([
      { no: 1, text: '' },
      { no: 2, text: '  ' },
    ]);
  });
});
