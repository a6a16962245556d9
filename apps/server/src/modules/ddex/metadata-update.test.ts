/**
 * A metadata-only update on a real folder target (issue 26 finding 6, record 320): the update package
 * carries no resources, so its message names no file at all (stores answer ResourceMissing for a File
 * whose URI is not in the folder); the first package names each of its files, with the MD5 it arrived
 * with. Both messages validate against the vendored ERN 4.3 schema. Also: an update resending some files
 * (planPackage with storage keys) names those alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries } from '../../db/schema';
import { validateErn43 } from '../../test-support/ddex';
import {
  type DeliveryBed,
  expectCompletePackages,
  startDeliveryBed,
} from '../../test-support/delivery-fixtures';
import { readDeliveries, storeAcknowledgeAll } from '../../test-support/sftp';
import { runDeliveryOnce } from '../delivery';
import { packageXml, planPackage } from './package';

let bed: DeliveryBed;
let folder: string;
let releaseId: string;

const run = () => runDeliveryOnce(bed.system, { retryBaseMs: 0 });
const uris = (xml: string) => [...xml.matchAll(/<URI>([^<]+)<\/URI>/g)].map((match) => match[1] ?? '');

beforeAll(async () => {
  bed = await startDeliveryBed();
  folder = bed.tempDir(path.join(os.tmpdir(), 'tunedrop-h2-update-'));
  await bed.onlyTarget({ url: `file://${folder}` });
  [releaseId = ''] = await bed.approvedReleases(1, {
    trackCount: 2,
    distributionStores: ['spotify', 'deezer'],
  });
}, 60_000);

afterAll(async () => {
  await bed?.close();
});

describe('a metadata-only update names no file missing from its folder', () => {
  it('the new package names its files; the update (a store taken down) names none', async () => {
    await run();
    const [first] = expectCompletePackages(folder);
    expect(first).toBeDefined();
    const firstXml = first?.xml ?? '';
    expect(uris(firstXml).sort()).toEqual((first?.resources ?? []).map((name) => `resources/${name}`).sort());
    expect(validateErn43(firstXml).status).toBe(0);
    storeAcknowledgeAll(folder);
    await run();

    // An update: the artist asks to leave Deezer, the admin approves; nothing about the files changed.
    const { people, system } = bed;
    const asked = await system.request(`/api/releases/${releaseId}/store-takedowns`, {
      method: 'POST',
      cookie: people.artist.cookie,
      json: { platformId: 'deezer' },
    });
    expect(asked.status).toBe(201);
    const approved = await system.request(`/api/admin/releases/${releaseId}/takedown`, {
      method: 'POST',
      cookie: people.admin.cookie,
      json: { platformId: 'deezer' },
    });
    expect(approved.status).toBe(200);
    const [update] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(update?.action).toBe('update');
    await run();

    const packages = readDeliveries(folder);
    const last = packages.at(-1);
    expect(packages).toHaveLength(2);
    expect(last?.resources).toEqual([]);
    const xml = last?.xml ?? '';
    // Every file the message names is in its folder: here, none.
    for (const uri of uris(xml)) expect(fs.existsSync(path.join(folder, last?.folder ?? '', uri))).toBe(true);
    expect(uris(xml)).toEqual([]);
    // Both recordings (the test release has no cover), each described as not provided in this delivery.
    expect(xml.match(/<IsProvidedInDelivery>false<\/IsProvidedInDelivery>/g)).toHaveLength(2);
    expect(xml).not.toContain('<IsProvidedInDelivery>true</IsProvidedInDelivery>');
    expect(xml).toContain('<FullName>Spotify</FullName>');
    expect(xml).not.toContain('Deezer');
    const validation = validateErn43(xml);
    expect(validation.status, validation.report).toBe(0);
  });

  it('an update resending one file names that file alone, in the package that carries it', async () => {
    const at = new Date();
    const data = await planPackage(bed.system.db, releaseId, { at, withResources: true, isStaged: false });
    const firstTrackKey = data.data.tracks[0]?.fileKey ?? '';
    const plan = await planPackage(bed.system.db, releaseId, {
      at,
      withResources: { keys: [firstTrackKey] },
      isStaged: false,
    });
    expect(plan.resources.map((resource) => resource.key)).toEqual([firstTrackKey]);
    const xml = packageXml(plan, {
      sender: { partyId: 'PADPIDA2013042401U', name: 'Tunedrop' },
      target: { dpid: 'PADPIDA2009101501Y', name: 'Store' },
      platforms: ['spotify'],
      files: [{ key: firstTrackKey, name: 'x.wav', bytes: 4096, md5: 'd41d8cd98f00b204e9800998ecf8427e' }],
      messageId: 'TD-H2',
      at,
    });
    expect(uris(xml)).toEqual([`resources/${plan.resources[0]?.name}`]);
    expect(xml).toContain('<HashSumValue>d41d8cd98f00b204e9800998ecf8427e</HashSumValue>');
    expect(xml.match(/<IsProvidedInDelivery>true<\/IsProvidedInDelivery>/g)).toHaveLength(1);
    expect(xml.match(/<IsProvidedInDelivery>false<\/IsProvidedInDelivery>/g)).toHaveLength(1);
    expect(validateErn43(xml).status).toBe(0);
  });
});
