/**
 * A store on the other side of a `file://` delivery target, for the delivery journeys: it finds the
 * packages the server wrote into the target folder (ERN-CHOREOGRAPHY.md §1, release by release:
 * `{P|N}_{ReleaseId}_{time}/{ReleaseId}.xml` + `resources/`), reads the message like a store would, and
 * writes `AcknowledgementMessage` files (ern-c-sftp/18) into the package's `acknowledgements/` folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { ackXml } from '../../apps/server/src/test-support/sftp';
import { e2eEnv } from './env';

/** Valid DDEX Party IDs (ISO 7064 MOD 37,36 check character), from ERN-CHOREOGRAPHY.md §7. */
export const SENDER_DPID = 'PADPIDA2013042401U';
export const STORE_DPID = 'PADPIDA99999999021';

export type StoreFolder = { dir: string; url: string; remove: () => void };

/** A store's folder under DATA_DIR/targets, where the server allows folder targets by default (record 227). */
export function storeFolder(): StoreFolder {
  const root = path.join(e2eEnv.dataDir, 'targets');
  fs.mkdirSync(root, { recursive: true });
  const dir = fs.mkdtempSync(path.join(root, 'tunedrop-store-'));
  return { dir, url: `file://${dir}`, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export type DeliveredPackage = {
  /** The release folder, e.g. `N_0614141000012_20261123101500123`. */
  folder: string;
  path: string;
  xml: string;
  messageId: string;
  upc: string | null;
  /** A takedown is a NewReleaseMessage without deals (§5). */
  isTakedown: boolean;
  /** Files under resources/ with their sizes. */
  resources: { name: string; bytes: number }[];
};

const messageIdOf = (xml: string) =>
  /<MessageHeader>[\s\S]*?<MessageId>([^<]+)<\/MessageId>/.exec(xml)?.[1] ?? null;

function readPackage(root: string, folder: string): DeliveredPackage | null {
  const dir = path.join(root, folder);
  if (!fs.statSync(dir).isDirectory()) return null;
  const xmlName = fs
    .readdirSync(dir)
    .find((name) => name.endsWith('.xml') && !name.startsWith('BatchComplete_') && !name.startsWith('.'));
  if (!xmlName) return null; // the message is written last: the package is not complete yet
  const xml = fs.readFileSync(path.join(dir, xmlName), 'utf8');
  const messageId = messageIdOf(xml);
  if (!messageId) return null;
  const resourcesDir = path.join(dir, 'resources');
  const resources = fs.existsSync(resourcesDir)
    ? fs
        .readdirSync(resourcesDir)
        .map((name) => ({ name, bytes: fs.statSync(path.join(resourcesDir, name)).size }))
    : [];
  return {
    folder,
    path: dir,
    xml,
    messageId,
    upc: /<ICPN>(\d+)<\/ICPN>/.exec(xml)?.[1] ?? null,
    isTakedown: !/<Deal>/.test(xml),
    resources,
  };
}

/** Every complete package in the folder, oldest first (folder names end with the upload time). */
export function packages(root: string): DeliveredPackage[] {
  return fs
    .readdirSync(root)
    .filter((name) => /^[PNL]_/.test(name))
    .sort((a, b) => a.slice(a.lastIndexOf('_')).localeCompare(b.slice(b.lastIndexOf('_'))))
    .map((folder) => readPackage(root, folder))
    .filter((item): item is DeliveredPackage => item !== null);
}

/** Waits until a package matching `accept` is complete in the folder. */
export async function waitForPackage(
  root: string,
  accept: (item: DeliveredPackage) => boolean = () => true,
  timeoutMs = 30_000,
): Promise<DeliveredPackage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = packages(root).find(accept);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(
        `no matching package in ${root} after ${timeoutMs} ms (saw: ${fs.readdirSync(root).join(', ')})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const stamp = () => new Date().toISOString().replace(/\D/g, '').slice(0, 17);

/**
 * Writes the store's acknowledgement of a package: accepted (`FileOK`, ingested) or rejected with
 * the store's own words. Written under a temporary name and renamed, as a careful store would.
 */
export function acknowledge(
  item: DeliveredPackage,
  outcome: { isAccepted: true } | { isAccepted: false; errorText: string; status?: string },
): string {
  const dir = path.join(item.path, 'acknowledgements');
  fs.mkdirSync(dir, { recursive: true });
  const releaseStatus = outcome.isAccepted
    ? 'SuccessfullyIngestedByReleaseDistributor'
    : 'ProcessingErrorAtReleaseDistributor';
  const fileStatus = outcome.isAccepted ? 'FileOK' : (outcome.status ?? 'MetadataMissing');
  const xml = ackXml({
    messageId: item.messageId,
    ackId: `ACK-${item.messageId}-${stamp()}`,
    storeDpid: STORE_DPID,
    senderDpid: SENDER_DPID,
    createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    upc: item.upc,
    releaseStatus,
    status: fileStatus,
    ...(outcome.isAccepted ? {} : { errorText: outcome.errorText, information: outcome.errorText }),
  });
  const name = `ACK_${item.messageId}_${stamp()}.xml`;
  const temp = path.join(dir, `.${name}.part`);
  fs.writeFileSync(temp, xml);
  fs.renameSync(temp, path.join(dir, name));
  return name;
}

/** Writes any file into a package's acknowledgements/ folder (a half-written or foreign answer). */
export function writeAckFile(item: DeliveredPackage, name: string, text: string): void {
  const dir = path.join(item.path, 'acknowledgements');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, name), text);
}

/** An admin's API calls from a signed-in context (same origin, as the browser sends them). */
export async function adminApi<T>(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  data?: unknown,
): Promise<T> {
  const response = await request.fetch(`${e2eEnv.baseUrl}${url}`, {
    method,
    headers: { origin: e2eEnv.baseUrl, 'content-type': 'application/json' },
    ...(data === undefined ? {} : { data: JSON.stringify(data) }),
  });
  if (!response.ok()) throw new Error(`${method} ${url} → ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * A journey's clean-up: its target is disabled, so no other journey's approval goes there. It may still
 * hold releases, so it is not removed (record 177).
 */
export const retireTarget = (request: APIRequestContext, targetId: string) =>
  adminApi(request, 'PATCH', `/api/admin/delivery/targets/${targetId}`, { enabled: false });

/** Codes and sender, as the delivery journeys all use them (settings are one row for the whole app). */
export const CODE_SETTINGS = {
  isrcRegistrant: 'QZ-ABC',
  upcPrefix: '0614141',
  ddexSenderPartyId: SENDER_DPID,
  ddexSenderName: 'Tunedrop',
} as const;

/** A unique name, so journeys running side by side never share a target. */
export const uniqueName = (base: string) => `${base} ${Math.random().toString(36).slice(2, 7)}`;

async function fixture<T>(pathName: string, body: unknown): Promise<T> {
  const response = await fetch(`${e2eEnv.baseUrl}/api/test-fixtures${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fixtures-token': e2eEnv.fixturesToken },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`fixture ${pathName} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * One delivery worker pass now: the background worker reads acknowledgements only every few seconds,
 * a journey should not wait for that window.
 */
export const runWorker = () => fixture<{ jobs: number; acks: number }>('/delivery/run', {});

/** The store answers a package, and the server reads the answer at once. */
export async function answer(
  item: DeliveredPackage,
  outcome: Parameters<typeof acknowledge>[1],
): Promise<void> {
  acknowledge(item, outcome);
  await runWorker();
}

/** Moves a release's date (time passing): the worker's next round sees it as it would on that day. */
export const setReleaseDate = (releaseId: string, releaseDate: string) =>
  fixture<{ ok: true }>(`/releases/${releaseId}/release-date`, { releaseDate });

/** `YYYY-MM-DD` `days` from today (UTC). */
export const isoDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * What the journeys after the first set up through the admin API (the first one does it in the UI):
 * the codes, a folder target serving `platforms`, and the approval of `releaseId`.
 */
export async function deliverThroughApi(
  request: APIRequestContext,
  options: { store: StoreFolder; platforms: string[]; releaseId: string; targetName: string },
): Promise<{ targetId: string }> {
  await adminApi(request, 'PUT', '/api/admin/settings', CODE_SETTINGS);
  const target = await adminApi<{ id: string }>(request, 'POST', '/api/admin/delivery/targets', {
    name: options.targetName,
    url: options.store.url,
    dpid: STORE_DPID,
    platforms: options.platforms,
    profile: 'release',
  });
  await adminApi(request, 'POST', `/api/admin/releases/${options.releaseId}/approve`, {});
  return { targetId: target.id };
}
