/** Business constants of the spec (01 §9, 02 §9): plans, prices, limits, platforms, genres. */

export const PLANS = ['basic', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

export const PLAN_DETAILS = {
  basic: {
    name: 'Basic',
    priceCents: 999,
    priceLabel: '$9.99',
    reviewEstimate: '7-14 days',
    minWithdrawalCents: 5000,
  },
  pro: {
    name: 'Pro',
    priceCents: 1999,
    priceLabel: '$19.99',
    reviewEstimate: '1-2 days',
    minWithdrawalCents: 2000,
  },
} as const satisfies Record<Plan, unknown>;

export const ROLES = ['admin', 'moderator', 'free_access'] as const;
export type Role = (typeof ROLES)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'past_due', 'inactive'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const RELEASE_STATUSES = [
  'pending',
  'processing',
  'approved',
  'live',
  'rejected',
  'taken_down',
  'deleted',
] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

export const WITHDRAWAL_STATUSES = ['pending', 'completed', 'rejected', 'cancelled'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** `stripe`: a Stripe Connect account onboarded through Stripe's own form, never typed in (issue 38). */
export const PAYMENT_METHODS = ['bank', 'paypal', 'stripe', 'wise'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const SONGWRITER_ROLES = ['music', 'lyrics', 'music_and_lyrics'] as const;
export type SongwriterRole = (typeof SONGWRITER_ROLES)[number];
export const SONGWRITER_ROLE_LABELS: Record<SongwriterRole, string> = {
  music: 'Music',
  lyrics: 'Lyrics',
  music_and_lyrics: 'Music & Lyrics',
};
/** A songwriter role's label ('Music & Lyrics'); a role no longer listed is shown as it is. */
const SONGWRITER_ROLE_LABEL_OF = new Map<string, string>(Object.entries(SONGWRITER_ROLE_LABELS));
export const songwriterRoleLabel = (role: string): string => SONGWRITER_ROLE_LABEL_OF.get(role) ?? role;

export const BALANCE_UPDATE_TYPES = [
  'manual',
  'bulk_csv',
  'cli',
  'withdrawal_request',
  'withdrawal_cancel',
  'withdrawal_refund',
  'royalty_import',
  'split_release',
  'split_return',
  'reserve_release',
] as const;
export type BalanceUpdateType = (typeof BALANCE_UPDATE_TYPES)[number];

export const GENRES = [
  'Pop',
  'Rock',
  'Hip Hop',
  'R&B',
  'Electronic',
  'Dance',
  'Jazz',
  'Classical',
  'Country',
  'Reggae',
  'Blues',
  'Metal',
  'Folk',
  'Soul',
  'Other',
] as const;
export type Genre = (typeof GENRES)[number];

export const PLATFORMS = [
  { id: 'spotify', name: 'Spotify' },
  { id: 'apple_music', name: 'Apple Music' },
  { id: 'itunes', name: 'iTunes' },
  { id: 'instagram', name: 'Instagram' },
  { id: 'tiktok', name: 'TikTok' },
  { id: 'youtube_music', name: 'YouTube Music' },
  { id: 'amazon', name: 'Amazon Music' },
  { id: 'pandora', name: 'Pandora' },
  { id: 'deezer', name: 'Deezer' },
  { id: 'tidal', name: 'TIDAL' },
  { id: 'iheart', name: 'iHeartRadio' },
  { id: 'claro', name: 'Claro Música' },
  { id: 'saavn', name: 'JioSaavn' },
  { id: 'boomplay', name: 'Boomplay' },
  { id: 'anghami', name: 'Anghami' },
  { id: 'netease', name: 'NetEase Cloud Music' },
  { id: 'tencent', name: 'Tencent Music' },
  { id: 'qobuz', name: 'Qobuz', isBeta: true },
  { id: 'joox', name: 'JOOX' },
  { id: 'kuack', name: 'Kuack Media' },
  { id: 'adaptr', name: 'Adaptr' },
  { id: 'flo', name: 'FLO' },
  { id: 'medianet', name: 'MediaNet' },
  { id: 'snapchat', name: 'Snapchat' },
  { id: 'roblox', name: 'Roblox', isBeta: true },
] as const satisfies readonly { id: string; name: string; isBeta?: boolean }[];
export type PlatformId = (typeof PLATFORMS)[number]['id'];
export const PLATFORM_IDS = PLATFORMS.map((p) => p.id) as PlatformId[];
const PLATFORM_NAMES = new Map<string, string>(PLATFORMS.map((platform) => [platform.id, platform.name]));
/** A store's display name ('apple_music' → 'Apple Music'); an id no longer listed is shown as it is. */
export const platformName = (id: string): string => PLATFORM_NAMES.get(id) ?? id;

export const LIMITS = {
  emailMaxLength: 49,
  passwordMinLength: 8,
  passwordMaxLength: 32,
  tracksMin: 1,
  tracksMax: 20,
  primaryArtistsPerTrack: 4,
  primaryArtistsPerReleaseBasic: 1,
  primaryArtistsPerReleasePro: 999,
  coverArtMaxBytes: 10 * 1024 * 1024,
  coverArtPixels: 3000,
  minYear: 1900,
  artistSearchMinChars: 2,
  userSearchLimit: 10,
  contactLinksMax: 10,
  artistWarningMs: 3000,
  keyboardDragStepPx: 25,
} as const;

export const CSV_TEMPLATE_HEADER = 'user_id_or_email,new_balance';
