import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readStreamFully } from './transport-sftp';

/**
 * A stream like ssh2's: its chunks, its end, then closing its remote handle fails once the reader is gone
 * (the connection dropped before the server answered the close).
 */
function streamFailingToClose(chunks: string[]) {
  const stream = new Readable({
    read() {},
    destroy(error, callback) {
      setTimeout(() => callback(error ?? new Error('No response from server')), 5);
    },
  });
  for (const chunk of chunks) stream.push(Buffer.from(chunk));
  stream.push(null);
  return stream;
}

describe('reading an acknowledgement from an SFTP store', () => {
  it('returns every byte, and an error after the end does not end the process', async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const stream = streamFailingToClose(['<ack>', 'accepted', '</ack>']);
      const read = await readStreamFully(stream);
      expect(read.toString('utf8')).toBe('<ack>accepted</ack>');
      // The failed close has run its course (its error, then 'close') with nobody else listening.
      if (!stream.closed) await new Promise((resolve) => stream.once('close', resolve));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  });

  it('still fails the read when the stream fails before its end', async () => {
    const stream = new Readable({ read() {} });
    stream.push(Buffer.from('<ack>'));
    setImmediate(() => stream.destroy(new Error('The connection to store.example was lost')));
    await expect(readStreamFully(stream)).rejects.toThrow('The connection to store.example was lost');
  });
});
