/**
 * Release delivery (issue 15): operator settings for codes and the DDEX sender, delivery targets
 * (SFTP / S3 / folder), per-release-per-target deliveries with their attempts and acknowledgements,
 * per-store takedowns, and the artist's release detail page. Used by both sides.
 *
 * Routes served by `apps/server/src/modules/delivery/routes.ts` (JSON unless noted):
 *
 * Admin only (`access('admin')`):
 *   GET    /api/admin/settings                          → DeliverySettingsView
 *   PUT    /api/admin/settings          SettingsInput   → DeliverySettingsView
 *   GET    /api/admin/delivery/targets                  → { items: DeliveryTargetView[] }
 *   POST   /api/admin/delivery/targets  TargetInput     → DeliveryTargetView (201)
 *   PATCH  /api/admin/delivery/targets/:id TargetPatch  → DeliveryTargetView
 *   DELETE /api/admin/delivery/targets/:id              → { ok: true } (disables; history is kept)
 *   POST   /api/admin/delivery/targets/:id/test         → TargetTestResult (200 even when it fails: read `ok`)
 *   GET    /api/admin/delivery/unmatched-acks           → { items: AckView[] } (acks for unknown messages / malformed)
 *   GET    /api/admin/deliveries?state=&targetId=&releaseId=&cursor=&limit= → DeliveryListResponse
 *   GET    /api/admin/deliveries/:id                    → DeliveryDetail
 *   GET    /api/admin/deliveries/:id/attempts/:attemptId/package → application/zip (the exact files sent)
 *   POST   /api/admin/deliveries/:id/retry              → DeliveryListItem (queued again, attempts reset)
 *   POST   /api/admin/releases/:id/takedown  AdminTakedownInput → { deliveries: DeliveryListItem[] }
 *          {} = every target; {targetId} = that target only; {platformId} = that one store only
 *          (also fulfils an artist's per-store request for that store).
 *
 * Artist, owner only (`access('user')` + ownership in the service; 404 for someone else's release):
 *   GET    /api/releases/:id/detail                     → ReleaseDetail
 *   POST   /api/releases/:id/store-takedowns StoreTakedownInput → ReleaseDetail (201)
 *
 * Errors: the app's error JSON; 422 validation (with `fields`, messages from DELIVERY_MESSAGES), 404, 409 (state).
 */
import { z } from 'zod';
import { PLATFORM_IDS, type PlatformId, type ReleaseStatus } from '../constants';
import { multilineText, safeText } from '../text';

/* ------------------------------------------------------------------ codes */

const ISRC_RE = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/;
const REGISTRANT_RE = /^[A-Z]{2}-?[A-Z0-9]{3}$/;

/** Strips display hyphens/spaces and an `ISRC` prefix, upper-cases (IDENTIFIERS.md). */
export function normaliseIsrc(s: string): string {
  return s.toUpperCase().replace(/^ISRC/, '').replace(/[\s-]/g, '');
}
export const isIsrc = (s: string): boolean => ISRC_RE.test(normaliseIsrc(s));
/** `QZABC2600001` → `QZ-ABC-26-00001`. */
export function formatIsrc(s: string): string {
  const n = normaliseIsrc(s);
  return ISRC_RE.test(n) ? `${n.slice(0, 2)}-${n.slice(2, 5)}-${n.slice(5, 7)}-${n.slice(7)}` : s;
}

/** GS1 mod-10 check digit over every digit except the check digit. */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const d = body.charCodeAt(body.length - 1 - i) - 48;
    sum += d * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}
/** UPC-A (12) or EAN-13 with a correct check digit. */
export const isUpc = (s: string): boolean =>
  /^\d{12,13}$/.test(s) && gtinCheckDigit(s.slice(0, -1)) === Number(s.slice(-1));

/** DDEX Party ID: `PADPIDA` + 10 + check char (ISO 7064 MOD 37,36), dashes allowed on input. */
const MOD_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export function mod3736Check(s: string): string {
  let p = 36;
  for (const ch of s) {
    const v = MOD_ALPHABET.indexOf(ch);
    if (v < 0) return '?';
    let sum = (p + v) % 36;
    if (sum === 0) sum = 36;
    p = (sum * 2) % 37;
  }
  return MOD_ALPHABET[(37 - p) % 36] ?? '?';
}
export const normaliseDpid = (s: string): string => s.toUpperCase().replace(/[\s-]/g, '');
export const isDpid = (s: string): boolean => {
  const n = normaliseDpid(s);
  return /^PADPIDA[A-Z0-9]{11}$/.test(n) && mod3736Check(n.slice(0, 17)) === n[17];
};

export const DELIVERY_MESSAGES = {
  upcTakenAtApproval:
    "This release's UPC is already used by another release. Reject it and ask the artist for another UPC.",
  registrantInvalid: 'Enter the ISRC registrant as country and registrant code, e.g. QZ-ABC.',
  upcPrefixInvalid: 'Enter the GS1 company prefix as 6 to 11 digits, e.g. 0614141.',
  dpidInvalid: 'Enter a DDEX Party ID: 18 characters starting with PADPIDA, e.g. PADPIDA2013042401U.',
  senderNameRequired: 'Enter the DDEX sender name.',
  nameRequired: 'Enter a name for the target.',
  urlInvalid:
    'Enter a URL starting with sftp://user:password@host:port/path, s3://bucket/prefix or file:///absolute/path.',
  platformsRequired: 'Choose all platforms or at least one platform.',
  platformUnknown: 'Unknown platform.',
  targetNotFound: 'Delivery target not found.',
  targetNameTaken: 'A delivery target with this name already exists.',
  deliveryNotFound: 'Delivery not found.',
  attemptNotFound: 'Attempt not found.',
  packageGone: 'The package of this attempt is no longer kept.',
  retryNotAllowed: 'Only rejected or failed deliveries can be retried.',
  releaseNotFound: 'Release not found.',
  takedownNotAllowed: 'Only approved or live releases can be taken down.',
  deleteWhileAtStores:
    'This release was delivered to stores: take it down from every store first (Deliveries), then delete it.',
  storeNotSelected: 'This release is not distributed to that store.',
  storeAlreadyTakenDown: 'A takedown for this store is already requested or done.',
  needsCodesNotice:
    'Releases are waiting for codes: set the ISRC registrant and the UPC/GS1 company prefix in Settings, then they get codes on the next approval or with codes:backfill.',
  noTargetsNotice: 'No delivery target serves these stores yet: approved releases are not sent anywhere.',
  settingsSaved: 'Settings saved',
  targetSaved: 'Delivery target saved',
  targetDeleted: 'Delivery target removed',
  retryQueued: 'Delivery queued again',
  takedownQueued: 'Takedown queued',
  storeTakedownRequested: 'Takedown requested for this store',
  hostKeyInvalid:
    'Enter the host key fingerprint as OpenSSH prints it (ssh-keygen -lf key.pub): SHA256: followed by 43 characters.',
  hostKeyOnlySftp: 'A host key fingerprint applies to sftp:// targets only.',
  hostKeyNotKnown: 'Not known yet: recorded at the first connection.',
} as const;

/**
 * The refusal when an SFTP server answers with another key than the target's pinned one (record 153).
 * Nothing, no password or key, was sent to that server.
 */
export const hostKeyChangedMessage = (input: {
  host: string;
  targetName: string;
  expected: string;
  received: string;
}) =>
  `The host key of ${input.host} changed (target "${input.targetName}"): expected ${input.expected}, received ${input.received}. Nothing was sent. If the store really changed its key, enter the new fingerprint on the target.`;

/* --------------------------------------------------------------- settings */

/** Keys accepted by `npm run cli -- settings:set KEY VALUE` (and stored in the settings table). */
export const SETTING_KEYS = [
  'ISRC_REGISTRANT',
  'UPC_PREFIX',
  'DDEX_SENDER_PARTY_ID',
  'DDEX_SENDER_NAME',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const isrcRegistrantSchema = safeText()
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => REGISTRANT_RE.test(s), DELIVERY_MESSAGES.registrantInvalid)
  .transform((s) => s.replace('-', '').replace(/^(..)(...)$/, '$1-$2'));
export const upcPrefixSchema = safeText()
  .trim()
  .regex(/^\d{6,11}$/, DELIVERY_MESSAGES.upcPrefixInvalid);
/**
 * The syntax only (18 characters, `PADPIDA` + 11): the MOD 37,36 check character is verified on published
 * DPIDs but not stated as a rule in any DDEX text we have (IDENTIFIERS.md), and test ids often fail it.
 */
export const dpidSchema = safeText()
  .trim()
  .transform(normaliseDpid)
  .refine((s) => /^PADPIDA[A-Z0-9]{11}$/.test(s), DELIVERY_MESSAGES.dpidInvalid);

/**
 * Empty (or null) clears a code setting; anything else must be a valid code. Written as a pipe, not a
 * union, so a bad code reports the code's own message rather than the union's "expected ''".
 */
const clearable = (schema: z.ZodType<string, string>) =>
  safeText()
    .nullable()
    .transform((s) => (s === null || s.trim() === '' ? null : s))
    .pipe(schema.nullable());

/** PUT /api/admin/settings. Empty string or null clears a code setting (back to "needs codes"). */
export const settingsInputSchema = z.object({
  isrcRegistrant: clearable(isrcRegistrantSchema),
  upcPrefix: clearable(upcPrefixSchema),
  ddexSenderPartyId: dpidSchema,
  ddexSenderName: safeText().trim().min(1, DELIVERY_MESSAGES.senderNameRequired).max(200),
});
export type SettingsInput = z.input<typeof settingsInputSchema>;
export type SettingsValues = z.output<typeof settingsInputSchema>;

/** Per-key validation for the CLI (`settings:set KEY VALUE`). */
export const SETTING_VALUE_SCHEMAS: Record<SettingKey, z.ZodType<string | null>> = {
  ISRC_REGISTRANT: settingsInputSchema.shape.isrcRegistrant,
  UPC_PREFIX: settingsInputSchema.shape.upcPrefix,
  DDEX_SENDER_PARTY_ID: dpidSchema,
  DDEX_SENDER_NAME: settingsInputSchema.shape.ddexSenderName,
};

export type DeliverySettingsView = {
  isrcRegistrant: string | null;
  upcPrefix: string | null;
  ddexSenderPartyId: string;
  ddexSenderName: string;
  /** Where each value comes from: saved by an operator, or the server's DDEX_* default. */
  sources: Record<'ddexSenderPartyId' | 'ddexSenderName', 'settings' | 'default'>;
  /** Approved/live releases still missing an ISRC or UPC (shown with DELIVERY_MESSAGES.needsCodesNotice). */
  needsCodesCount: number;
  /** How many codes a prefix still has room for; null when no prefix is set. */
  upcRemaining: number | null;
};

/* ---------------------------------------------------------------- targets */

export const TARGET_SCHEMES = ['sftp', 's3', 'file'] as const;
export type TargetScheme = (typeof TARGET_SCHEMES)[number];
export const TARGET_PROFILES = ['release', 'batch'] as const;
export type TargetProfile = (typeof TARGET_PROFILES)[number];
export const TARGET_PROFILE_LABELS: Record<TargetProfile, string> = {
  release: 'Release by release',
  batch: 'Batch (BatchComplete manifest)',
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
  /** Deliveries per state for this target. */
  counts: Partial<Record<DeliveryState, number>>;
  createdAt: string;
  updatedAt: string;
};

export type TargetTestResult = { ok: boolean; message: string; elapsedMs: number };

/* ------------------------------------------------------------- deliveries */

export const DELIVERY_STATES = [
  'queued',
  'uploading',
  'delivered',
  'acknowledged',
  'rejected',
  'failed',
  'takedown_queued',
  'takedown_sent',
  'taken_down',
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  queued: 'Queued',
  uploading: 'Uploading',
  delivered: 'Delivered',
  acknowledged: 'Acknowledged',
  rejected: 'Rejected',
  failed: 'Failed',
  takedown_queued: 'Takedown queued',
  takedown_sent: 'Takedown sent',
  taken_down: 'Taken down',
};
/** What the current (or last) message of a delivery says. */
export const DELIVERY_ACTIONS = ['new', 'update', 'takedown'] as const;
export type DeliveryAction = (typeof DELIVERY_ACTIONS)[number];

export const deliveriesQuerySchema = z.object({
  state: z
    .enum(DELIVERY_STATES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  targetId: safeText()
    .uuid()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  releaseId: safeText()
    .uuid()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  cursor: safeText().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type DeliveriesQuery = z.input<typeof deliveriesQuerySchema>;

export type DeliveryListItem = {
  id: string;
  releaseId: string;
  releaseTitle: string;
  artistName: string;
  upc: string | null;
  releaseStatus: ReleaseStatus;
  targetId: string;
  targetName: string;
  action: DeliveryAction;
  state: DeliveryState;
  /** Platforms this delivery carries deals for (target ∩ release stores − per-store takedowns). */
  platforms: PlatformId[];
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
  /** Last upload/connection error, or the store's rejection text. */
  lastError: string | null;
  deliveredAt: string | null;
  acknowledgedAt: string | null;
  updatedAt: string;
  /** Stores the artist asked to take down that an admin has not yet acted on. */
  pendingStoreTakedowns: PlatformId[];
};
export type DeliveryListResponse = { items: DeliveryListItem[]; nextCursor: string | null };

export type AckView = {
  id: string;
  targetId: string;
  targetName: string;
  fileName: string;
  receivedAt: string;
  /** `accepted`, `rejected`, `unknown_message` (no delivery has this MessageId), `malformed`. */
  outcome: 'accepted' | 'rejected' | 'unknown_message' | 'malformed';
  messageId: string | null;
  status: string | null;
  errorText: string | null;
  /** The file's text as received (truncated to 64 KB). */
  text: string;
};

export type DeliveryAttemptView = {
  id: string;
  number: number;
  action: DeliveryAction;
  messageId: string;
  startedAt: string;
  finishedAt: string | null;
  outcome: 'running' | 'uploaded' | 'failed';
  error: string | null;
  /** Folder written on the target, e.g. `N_0614141000012_20261123101500123`. */
  remotePath: string | null;
  bytes: number;
  messageXml: string;
  packageAvailable: boolean;
  acks: AckView[];
};

export type DeliveryDetail = DeliveryListItem & { attemptsList: DeliveryAttemptView[] };

export const adminTakedownSchema = z
  .object({
    targetId: safeText().uuid().optional(),
    platformId: z
      .enum(PLATFORM_IDS as [PlatformId, ...PlatformId[]], { message: DELIVERY_MESSAGES.platformUnknown })
      .optional(),
  })
  .default({});
export type AdminTakedownInput = z.input<typeof adminTakedownSchema>;

/* ------------------------------------------------------------ artist view */

export const storeTakedownSchema = z.object({
  platformId: z.enum(PLATFORM_IDS as [PlatformId, ...PlatformId[]], {
    message: DELIVERY_MESSAGES.platformUnknown,
  }),
});
export type StoreTakedownInput = z.input<typeof storeTakedownSchema>;

/** What the artist sees per store (derived from the delivery of the target serving it). */
export const STORE_STATES = [
  'waiting',
  'queued',
  'uploading',
  'delivered',
  'acknowledged',
  'live',
  'rejected',
  'failed',
  'takedown_requested',
  'takedown_queued',
  'taken_down',
] as const;
export type StoreState = (typeof STORE_STATES)[number];
export const STORE_STATE_LABELS: Record<StoreState, string> = {
  waiting: 'Waiting',
  queued: 'Queued',
  uploading: 'Sending',
  delivered: 'Delivered',
  acknowledged: 'Acknowledged',
  live: 'Live',
  rejected: 'Rejected',
  failed: 'Delivery problem',
  takedown_requested: 'Takedown requested',
  takedown_queued: 'Takedown in progress',
  taken_down: 'Taken down',
};

export type ReleaseDetailCredit = { firstName: string; middleName: string | null; lastName: string };
export type ReleaseDetailTrack = {
  id: string;
  position: number;
  title: string;
  isrc: string | null;
  explicit: boolean;
  durationMs: number | null;
  primaryArtists: string[];
  featuredArtists: string[];
  songwriters: (ReleaseDetailCredit & { role: string })[];
  producers: ReleaseDetailCredit[];
};
export type ReleaseDetailStore = {
  platformId: PlatformId;
  name: string;
  state: StoreState;
  /** When the state was reached (ISO), null while waiting. */
  date: string | null;
  /** The store's rejection reason, when rejected. */
  message: string | null;
  /** The artist may ask for a takedown from this store. */
  canRequestTakedown: boolean;
};
export type ReleaseStatusEvent = { status: string; at: string; note: string | null };
export type ReleaseDetail = {
  id: string;
  title: string;
  status: ReleaseStatus;
  coverUrl: string | null;
  primaryArtists: string[];
  featuredArtists: string[];
  genre: string;
  releaseDate: string;
  originalReleaseDate: string | null;
  labelName: string | null;
  copyrightHolder: string;
  copyrightYear: number;
  publishingHolder: string;
  publishingYear: number;
  upc: string | null;
  /** Approved but codes not yet assigned (operator has not configured prefixes). */
  codesPending: boolean;
  takedownRequested: boolean;
  /** The moderator's reason while the release is rejected (issue 18: fix and resubmit), else null. */
  rejectionReason: string | null;
  /** The owner may still change it: pending, processing, or rejected (then fix and resubmit). */
  isEditable: boolean;
  tracks: ReleaseDetailTrack[];
  stores: ReleaseDetailStore[];
  statusHistory: ReleaseStatusEvent[];
};
