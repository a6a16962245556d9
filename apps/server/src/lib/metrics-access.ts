/**
 * Who may read /metrics (record 218), the same rule on every instance whatever its role: a caller
 * sending METRICS_TOKEN as a bearer token, or a caller whose TCP peer address (the socket's, never a
 * forwarded header) is in METRICS_ALLOW. Unset, METRICS_ALLOW is loopback, except with TRUST_PROXY=1
 * (a proxy on the same host makes every request loopback): then only the token, or the list you set.
 */
import { BlockList, isIP } from 'node:net';

export const LOOPBACK_ALLOW = '127.0.0.0/8,::1/128';

/** The list's entries (`10.0.0.0/8`, `::1`, `192.168.1.20`), or the first entry that is none of them. */
export function parseAllowList(text: string): { list: BlockList } | { invalid: string } {
  const list = new BlockList();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    const max = family === 6 ? 128 : 32;
    if (family === 0 || !/^\d{1,3}$/.test(String(bits)) || bits > max) return { invalid: entry };
    list.addSubnet(address, bits, family === 6 ? 'ipv6' : 'ipv4');
  }
  return { list };
}

const cache = new Map<string, BlockList>();

/** The allow list in effect for a config (METRICS_ALLOW, or its default). */
export function metricsAllowList(config: {
  METRICS_ALLOW?: string | undefined;
  TRUST_PROXY: string;
}): BlockList {
  const text = config.METRICS_ALLOW ?? (config.TRUST_PROXY === '1' ? '' : LOOPBACK_ALLOW);
  let list = cache.get(text);
  if (!list) {
    const parsed = parseAllowList(text);
    // config.ts refuses an invalid list at start; an invalid one here allows nobody.
    list = 'list' in parsed ? parsed.list : new BlockList();
    cache.set(text, list);
  }
  return list;
}

/** Whether a peer address is in the list (an IPv4 address seen as `::ffff:a.b.c.d` counts as IPv4). */
export function isAddressAllowed(list: BlockList, address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const plain = mapped ?? address;
  const family = isIP(plain);
  if (family === 0) return false;
  return list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}
