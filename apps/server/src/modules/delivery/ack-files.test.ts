/**
 * Issue 43 findings 8 and 9 (record 226): a store's folder never leads the server out of it, and each
 * acknowledgement file is read on its own. Links to a file outside and to /proc/self/environ are neither
 * read nor stored and do not stop the others; UTF-16 and UTF-8-with-BOM acknowledgements are read; a file
 * with a NUL byte is kept as unreadable (with why) while the next one still moves its delivery.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryAcks } from '../../db/schema';
import { type DeliveryBed, startDeliveryBed } from '../../test-support/delivery-fixtures';
import { readJson } from '../../test-support/harness';
import { ackXml, readDeliveries, writeAck } from '../../test-support/sftp';
import { decodeAck } from './ack-text';
import { runDeliveryOnce } from './worker';

let bed: DeliveryBed;
const SECRET = `TOP-SECRET-${Date.now()}`;

beforeAll(async () => {
  bed = await startDeliveryBed();
}, 60_000);

afterAll(async () => {
  await bed?.close();
});

const run = () => runDeliveryOnce(bed.system, { retryBaseMs: 0 });

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => {
  const bytes = Buffer.from(text, 'utf16le');
  bytes.swap16();
  return Buffer.concat([Buffer.from([0xfe, 0xff]), bytes]);
};

describe('acknowledgement files', () => {
  it('links out of the folder are not read, a NUL ack is kept unreadable, and UTF-16 acks move their deliveries', async () => {
    const store = bed.tempDir(path.join(os.tmpdir(), 'tunedrop-ackstore-'));
    const outside = bed.tempDir(path.join(os.tmpdir(), 'tunedrop-outside-'));
    fs.writeFileSync(path.join(outside, 'app-secret'), SECRET);
    const targetId = await bed.onlyTarget({ url: `file://${store}` });
    const releaseIds = await bed.approvedReleases(3);
    await run();
    const packages = readDeliveries(store);
    expect(packages).toHaveLength(3);
    const [first, second, third] = packages;
    if (!first || !second || !third) throw new Error('three packages expected');
    const ackDir = (pkg: typeof first) => path.join(store, pkg.folder, 'acknowledgements');

    // The first package's folder: two links, a NUL-truncated ack, and its real ack (UTF-16 LE with BOM).
    fs.mkdirSync(ackDir(first), { recursive: true });
    fs.symlinkSync(path.join(outside, 'app-secret'), path.join(ackDir(first), 'ACK_secret.xml'));
    fs.symlinkSync('/proc/self/environ', path.join(ackDir(first), 'ACK_environ.xml'));
    const full = ackXml({ messageId: first.messageId });
    fs.writeFileSync(
      path.join(ackDir(first), 'ACK_truncated.xml'),
      Buffer.concat([Buffer.from(full.slice(0, 120)), Buffer.alloc(64)]),
    );
    fs.writeFileSync(
      path.join(ackDir(first), 'ACK_utf16.xml'),
      utf16le(full.replace('encoding="UTF-8"', 'encoding="UTF-16"')),
    );
    // A folder that is itself a link out of the store: not listed.
    fs.symlinkSync(outside, ackDir(second));
    // The third's ack: UTF-16 big endian.
    fs.mkdirSync(ackDir(third), { recursive: true });
    fs.writeFileSync(path.join(ackDir(third), 'ACK_be.xml'), utf16be(ackXml({ messageId: third.messageId })));
    await run();

    const states = await bed.system.db
      .select({ releaseId: deliveries.releaseId, state: deliveries.state })
      .from(deliveries)
      .where(inArray(deliveries.releaseId, releaseIds));
    const acks = await bed.system.db.select().from(deliveryAcks).where(eq(deliveryAcks.targetId, targetId));
    const byName = (name: string) => acks.find((a) => a.fileName === name);
    expect(byName('ACK_utf16.xml')?.outcome).toBe('accepted');
    expect(byName('ACK_be.xml')?.outcome).toBe('accepted');
    expect(byName('ACK_secret.xml')).toMatchObject({ outcome: 'malformed', text: '' });
    expect(byName('ACK_secret.xml')?.errorText).toBe(
      'Unreadable: ACK_secret.xml is a link, not a file; it was not read.',
    );
    expect(byName('ACK_environ.xml')).toMatchObject({ outcome: 'malformed', text: '' });
    expect(byName('ACK_truncated.xml')?.errorText).toMatch(
      /^Unreadable: the file holds a NUL character at position 120/,
    );
    expect(byName('ACK_truncated.xml')?.text).not.toContain('\u0000');
    // Nothing of the linked file or of the environment reached the admin.
    const unmatched = JSON.stringify(
      await readJson(
        await bed.system.request('/api/admin/delivery/unmatched-acks', { cookie: bed.people.admin.cookie }),
      ),
    );
    expect(unmatched).toContain('ACK_secret.xml');
    expect(unmatched).not.toContain(SECRET);
    expect(unmatched).not.toContain('PATH=');
    expect(acks.some((a) => a.fileName === 'app-secret')).toBe(false);
    // Two of the three acknowledged (the second's folder was a link, so it waits).
    const acknowledged = states.filter((s) => s.state === 'acknowledged');
    expect(acknowledged).toHaveLength(2);

    // The second's store replaces the link with a real folder and a UTF-8 ack with a byte order mark.
    fs.rmSync(ackDir(second));
    writeAck(store, second.folder, second.messageId, `\ufeff${ackXml({ messageId: second.messageId })}`);
    await run();
    const after = await bed.system.db
      .select({ state: deliveries.state })
      .from(deliveries)
      .where(inArray(deliveries.releaseId, releaseIds));
    expect(after.map((s) => s.state)).toEqual(['acknowledged', 'acknowledged', 'acknowledged']);
  }, 120_000);

  it('decodes UTF-8, UTF-8 with BOM, UTF-16 LE/BE with or without BOM, and names a NUL', () => {
    const xml = '<?xml version="1.0"?><a>é</a>';
    expect(decodeAck(Buffer.from(xml))).toEqual({ text: xml });
    expect(decodeAck(Buffer.from(`\ufeff${xml}`))).toEqual({ text: xml });
    expect(decodeAck(utf16le(xml))).toEqual({ text: xml });
    expect(decodeAck(utf16be(xml))).toEqual({ text: xml });
    expect(decodeAck(Buffer.from(xml, 'utf16le'))).toEqual({ text: xml });
    const latin = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>\xe9</a>', 'latin1');
    expect(decodeAck(latin).text).toContain('<a>é</a>');
    expect(decodeAck(Buffer.from('<a>\u0000</a>'))).toMatchObject({
      text: '<a></a>',
      unreadable: expect.stringMatching(/NUL character at position 3/),
    });
  });
});
