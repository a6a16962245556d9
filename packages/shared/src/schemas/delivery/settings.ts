/** The operator's settings for codes and the DDEX sender (admin settings page and `settings:set`). */
import { z } from 'zod';
import { safeText } from '../../text';
import { isDpid, normaliseDpid } from './codes';
import { DELIVERY_MESSAGES } from './messages';

const REGISTRANT_RE = /^[A-Z]{2}-?[A-Z0-9]{3}$/;

/** Keys accepted by `npm run cli -- settings:set KEY VALUE` (and stored in the settings table). */
export const SETTING_KEYS = [
  'ISRC_REGISTRANT',
  'UPC_PREFIX',
  'DDEX_SENDER_PARTY_ID',
  'DDEX_SENDER_NAME',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];
export const isSettingKey = (key: string): key is SettingKey => SETTING_KEYS.some((known) => known === key);

export const isrcRegistrantSchema = safeText()
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => REGISTRANT_RE.test(s), DELIVERY_MESSAGES.registrantInvalid)
  .transform((s) => s.replace('-', '').replace(/^(..)(...)$/, '$1-$2'));
export const upcPrefixSchema = safeText()
  .trim()
  .regex(/^\d{6,11}$/, DELIVERY_MESSAGES.upcPrefixInvalid);
/**
 * 18 characters, `PADPIDA` + 10 + the ISO 7064 MOD 37,36 check character over the first 17 (record 178):
 * every DPID DDEX publishes carries it, so a wrong one is a typo that would misaddress every message.
 */
export const dpidSchema = safeText()
  .trim()
  .transform(normaliseDpid)
  .refine((s) => /^PADPIDA[A-Z0-9]{11}$/.test(s), DELIVERY_MESSAGES.dpidInvalid)
  .refine((s) => !/^PADPIDA[A-Z0-9]{11}$/.test(s) || isDpid(s), DELIVERY_MESSAGES.dpidCheckInvalid);

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
