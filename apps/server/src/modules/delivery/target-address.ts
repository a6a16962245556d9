/**
 * Where an admin may point a delivery target (record 227): a `file://` folder only inside the configured
 * root (DELIVERY_FILE_ROOT, default DATA_DIR/targets; a link out of it counts as outside), and SFTP or S3
 * hosts only on public addresses unless DELIVERY_ALLOWED_HOSTS names them. Checked when a target is saved
 * and again at every connection, on the addresses the name resolves to then (a name that resolved to a
 * public address at save time may point at the metadata address later): SFTP connects to the address
 * checked, S3 resolves through the same check.
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { targetFolderRefusedMessage, targetHostRefusedMessage } from '@tunedrop/shared/schemas/delivery';
import type { Config } from '../../config';
import { validationError } from '../../lib/errors';
import { isInside, realPathOrAncestor } from './transport-folder';

/** What of a target's secret says where it points (the URL, an S3 target's own endpoint). */
type AddressOf = { url: string; s3?: { endpoint?: string } };

/** A target address the rules refuse; its message is the admin's sentence (shown as is). */
export class TargetAddressRefusedError extends Error {
  readonly code = 'TARGET_ADDRESS_REFUSED';
}

/** Address ranges no target may reach unless allowed, with what the admin is told each is. */
const RANGES: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['169.254.169.254', 32, 'ipv4', 'the cloud metadata address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT) address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'an unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['fd00:ec2::254', 128, 'ipv6', 'the cloud metadata address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['fc00::', 7, 'ipv6', 'a private address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];

/** An IPv4 address written as IPv6 (::ffff:127.0.0.1, ::ffff:7f00:1) is the IPv4 one. */
function unmapped(address: string): string {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex?.[1] || !hex[2]) return address;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** What kind of refused address this is, or null when it is public. */
export function refusedKind(address: string): string | null {
  const plain = unmapped(address);
  const family = net.isIPv4(plain) ? 'ipv4' : 'ipv6';
  for (const [network, prefix, type, kind] of RANGES) {
    if (type !== family) continue;
    const list = new net.BlockList();
    list.addSubnet(network, prefix, type);
    if (list.check(plain, type)) return kind;
  }
  return null;
}

/** DELIVERY_ALLOWED_HOSTS: names (compared case-insensitively), addresses and CIDR ranges. */
export function allowList(config: Pick<Config, 'DELIVERY_ALLOWED_HOSTS'>) {
  const names = new Set<string>();
  const addresses = new net.BlockList();
  for (const raw of (config.DELIVERY_ALLOWED_HOSTS ?? '').split(',')) {
    const entry = raw.trim().replace(/^\[|\]$/g, '');
    if (!entry) continue;
    const [base = '', bits] = entry.split('/');
    const family = net.isIPv4(base) ? 'ipv4' : net.isIPv6(base) ? 'ipv6' : null;
    if (!family) names.add(entry.toLowerCase());
    else if (bits !== undefined) addresses.addSubnet(base, Number(bits), family);
    else addresses.addAddress(base, family);
  }
  return {
    hasName: (host: string) => names.has(host.toLowerCase()),
    hasAddress: (address: string) => {
      const mapped = unmapped(address);
      return addresses.check(mapped, net.isIPv4(mapped) ? 'ipv4' : 'ipv6');
    },
  };
}

const bare = (host: string) => host.replace(/^\[|\]$/g, '');

/**
 * The addresses of `host` a target may connect to; throws TargetAddressRefusedError when one it resolves
 * to is refused (a name that also resolves to a private address is refused whole), and the lookup's error
 * when it does not resolve.
 */
export async function allowedAddresses(config: Config, hostname: string): Promise<string[]> {
  const host = bare(hostname);
  const allowed = allowList(config);
  const found = net.isIP(host)
    ? [host]
    : (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  if (allowed.hasName(host)) return found;
  for (const address of found) {
    const kind = refusedKind(address);
    if (kind && !allowed.hasAddress(address))
      throw new TargetAddressRefusedError(targetHostRefusedMessage(host, address, kind));
  }
  return found;
}

/** A `lookup` for sockets (the S3 client's): resolves like dns.lookup, then applies the rule above. */
export const guardedLookup =
  (config: Config): LookupFunction =>
  (hostname, options, callback) => {
    allowedAddresses(config, hostname).then(
      (addresses) => {
        const family = (a: string) => (net.isIPv4(a) ? 4 : 6);
        const wanted = addresses.filter((a) => !options.family || family(a) === options.family);
        if (wanted.length === 0) {
          const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
          return callback(error, '', 4);
        }
        if (options.all)
          return callback(
            null,
            wanted.map((address) => ({ address, family: family(address) })),
          );
        const [first = ''] = wanted;
        callback(null, first, family(first));
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };

/** The host a target connects to, when it names one (SFTP's, or the own endpoint of an S3 target). */
function hostOf(secret: AddressOf): string | null {
  const url = new URL(secret.url);
  if (url.protocol === 'sftp:') return url.hostname;
  if (url.protocol === 's3:') return secret.s3?.endpoint ? new URL(secret.s3.endpoint).hostname : null;
  return null;
}

/** The folder of a `file://` target, refused unless inside the root (through links too). */
export async function checkTargetFolder(config: Config, url: string): Promise<string> {
  const folder = path.resolve(decodeURIComponent(new URL(url).pathname));
  const root = config.deliveryFileRoot;
  const refusal = new TargetAddressRefusedError(targetFolderRefusedMessage(folder, root));
  if (!isInside(root, folder)) throw refusal;
  if (!isInside(await realPathOrAncestor(root), await realPathOrAncestor(folder))) throw refusal;
  return folder;
}

/**
 * The rules at save time (422 on the URL field). A host that does not resolve now is left to the
 * connection (a disabled target may be saved before its store's name exists); its address is checked then.
 */
export async function assertTargetAddress(config: Config, secret: AddressOf): Promise<void> {
  const isS3 = new URL(secret.url).protocol === 's3:';
  try {
    if (new URL(secret.url).protocol === 'file:') {
      await checkTargetFolder(config, secret.url);
      return;
    }
    const host = hostOf(secret);
    if (host) await allowedAddresses(config, host).catch(rethrowRefusal);
  } catch (error) {
    // On the field that names it: the URL, or the own endpoint of an S3 target (the form's s3Endpoint).
    if (error instanceof TargetAddressRefusedError)
      throw validationError(error.message, { [isS3 ? 's3Endpoint' : 'url']: error.message });
    throw error;
  }
}

const rethrowRefusal = (error: unknown): string[] => {
  if (error instanceof TargetAddressRefusedError) throw error;
  return [];
};
