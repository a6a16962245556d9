/** Delivery targets: SFTP / S3 / folder, their profile, platforms and pinned host key. */
import { z } from 'zod';
import { PLATFORM_IDS, type PlatformId } from '../../constants';
import { multilineText, safeText } from '../../text';
import type { DeliveryState } from './deliveries';
import { DELIVERY_MESSAGES } from './messages';
import { dpidSchema } from './settings';

export const TARGET_SCHEMES = ['sftp', 's3', 'file'] as const;
export type TargetScheme = (typeof TARGET_SCHEMES)[number];
/**
 * How a target takes packages: release by release, in batches with a manifest, or as YouTube's DDEX feed
 * (release by release, with a TrackRelease per track carrying the Art Track and Content ID deals; record 192).
 */
export const TARGET_PROFILES = ['release', 'batch', 'youtube'] as const;
export type TargetProfile = (typeof TARGET_PROFILES)[number];
export const TARGET_PROFILE_LABELS: Record<TargetProfile, string> = {
  release: 'Release by release',
  batch: 'Batch (BatchComplete manifest)',
  youtube: 'YouTube (Art Tracks and Content ID)',
};

export function targetUrlScheme(url: string): TargetScheme | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol === 'sftp:') return u.hostname ? 'sftp' : null;
  if (u.protocol === 's3:') return u.hostname ? 's3' : null;
  if (u.protocol === 'file:')
    return !u.hostname && u.pathname.startsWith('/') && u.pathname.length > 1 ? 'file' : null;
  return null;
}

const targetUrlSchema = safeText()
  .trim()
  .min(1, DELIVERY_MESSAGES.urlInvalid)
  .max(2000)
  .refine((s) => targetUrlScheme(s) !== null, DELIVERY_MESSAGES.urlInvalid);

/** `all`, or a non-empty list of platform ids. The CLI form `id,id` is accepted as a string. */
export const targetPlatformsSchema = z.union([
  z.literal('all'),
  z
    .array(
      z.enum(PLATFORM_IDS as [PlatformId, ...PlatformId[]], { message: DELIVERY_MESSAGES.platformUnknown }),
    )
    .min(1, DELIVERY_MESSAGES.platformsRequired)
    .transform((a) => [...new Set(a)]),
]);
export type TargetPlatforms = 'all' | PlatformId[];

const HOST_KEY_RE = /SHA256:([A-Za-z0-9+/]{43})=?(?![A-Za-z0-9+/=])/;

/** `SHA256:` + 43 base64 characters; also accepts a whole `ssh-keygen -l` line (`256 SHA256:… comment (ED25519)`). */
export function normaliseHostKey(s: string): string | null {
  const match = HOST_KEY_RE.exec(s.trim());
  return match ? `SHA256:${match[1]}` : null;
}

/** An SFTP host key fingerprint (record 153); empty or null = learn it at the next connection. */
export const hostKeySchema = safeText()
  .trim()
  .max(500)
  .nullable()
  .transform((s, ctx) => {
    if (s === null || s === '') return null;
    const fingerprint = normaliseHostKey(s);
    if (!fingerprint) {
      ctx.addIssue({ code: 'custom', message: DELIVERY_MESSAGES.hostKeyInvalid });
      return z.NEVER;
    }
    return fingerprint;
  });

export const targetInputSchema = z.object({
  name: safeText().trim().min(1, DELIVERY_MESSAGES.nameRequired).max(100),
  /** Credentials may be in the URL (`sftp://user:pass@host:22/path`); stored encrypted. */
  url: targetUrlSchema,
  dpid: dpidSchema,
  platforms: targetPlatformsSchema,
  profile: z.enum(TARGET_PROFILES).default('release'),
  /** SFTP: OpenSSH/PEM private key text instead of (or besides) a password. */
  privateKey: multilineText().max(20_000).optional(),
  /**
   * SFTP: the server's host key fingerprint (`SHA256:…`). Omitted or empty: the key seen at the first
   * connection is recorded (trust on first use). A different key later refuses before any credential is sent.
   */
  hostKey: hostKeySchema.optional(),
  /** S3: own endpoint/credentials; omitted → the server's S3_* settings. */
  s3: z
    .object({
      endpoint: safeText().trim().url().optional(),
      region: safeText().trim().max(100).optional(),
      accessKeyId: safeText().trim().max(200).optional(),
      secretAccessKey: safeText().max(500).optional(),
    })
    .optional(),
  enabled: z.boolean().default(true),
});
export type TargetInput = z.input<typeof targetInputSchema>;

/** PATCH: every field optional; an omitted url/privateKey/s3 keeps the stored (encrypted) one. */
export const targetPatchSchema = targetInputSchema.partial().extend({
  profile: z.enum(TARGET_PROFILES).optional(),
  enabled: z.boolean().optional(),
});
export type TargetPatch = z.input<typeof targetPatchSchema>;

/**
 * DELETE /api/admin/delivery/targets/:id: refused (409) while the target holds releases, unless
 * `?takeDown=all` (record 177): then 202 with the takedowns queued, and the target stays disabled.
 */
export const targetRemoveQuerySchema = z.object({
  takeDown: z.enum(['all']).optional(),
  /**
   * The counts the admin confirmed (issue 44): a removal affecting releases is refused (409
   * removal_not_confirmed, with the current counts) unless they equal what the server finds.
   */
  releases: z.coerce.number().int().min(0).optional(),
  artists: z.coerce.number().int().min(0).optional(),
});
export type TargetRemovalImpact = { releases: number; artists: number };
export type TargetRemoveResult =
  | { ok: true; removed: true }
  | { ok: true; removed: false; takedowns: number; held: number };

export type DeliveryTargetView = {
  id: string;
  name: string;
  scheme: TargetScheme;
  /** URL with the password replaced by `***`, e.g. `sftp://store:***@host:22/in`. */
  urlMasked: string;
  dpid: string;
  platforms: TargetPlatforms;
  profile: TargetProfile;
  enabled: boolean;
  hasPassword: boolean;
  hasPrivateKey: boolean;
  hasOwnS3Credentials: boolean;
  /** SFTP: the pinned host key (`SHA256:…`), null until given or seen at the first connection. */
  hostKeyFingerprint: string | null;
  /** When it was given or first seen. */
  hostKeyRecordedAt: string | null;
  /** Releases delivered there and not taken down yet (record 177): while > 0 it cannot be removed. */
  holds: number;
  /**
   * Who removing it now reaches (issue 44): the releases it would take down (or, holding none, never send)
   * and their artists, each mailed. The DELETE must confirm these counts.
   */
  removal: TargetRemovalImpact;
  /** Deliveries per state for this target. */
  counts: Partial<Record<DeliveryState, number>>;
  createdAt: string;
  updatedAt: string;
};

export type TargetTestResult = { ok: boolean; message: string; elapsedMs: number };
