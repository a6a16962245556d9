/**
 * Contact Us limits and messages without zod, so public pages can import them without loading the
 * validation library; `site.ts` builds the schema from them.
 */
import { LIMITS } from '../constants';

export const CONTACT_LIMITS = {
  nameMaxLength: 100,
  companyNameMaxLength: 150,
  emailMaxLength: 254,
  linkMaxLength: 2048,
  linksMax: LIMITS.contactLinksMax,
  /** Raw entries accepted before empty ones are dropped; guards against huge arrays of blanks. */
  rawLinksMax: 50,
  /** Requests one client address may send per window. */
  rateLimitCount: 5,
  rateLimitWindowMinutes: 60,
} as const;

export const CONTACT_MESSAGES = {
  nameRequired: 'Please enter your name.',
  nameTooLong: `Name must be at most ${CONTACT_LIMITS.nameMaxLength} characters.`,
  companyRequired: 'Please enter your artist, label or company name.',
  companyTooLong: `Artist/Label/Company Name must be at most ${CONTACT_LIMITS.companyNameMaxLength} characters.`,
  emailInvalid: 'Please enter a valid email address.',
  emailTooLong: `Email Address must be at most ${CONTACT_LIMITS.emailMaxLength} characters.`,
  singleLine: 'Please use a single line without control characters.',
  tooManyLinks: `Please add at most ${CONTACT_LIMITS.linksMax} links.`,
  linkInvalid: 'Each link must be a full web address starting with http:// or https://.',
  linkTooLong: `Each link must be at most ${CONTACT_LIMITS.linkMaxLength} characters.`,
  rateLimited: (minutes: number) =>
    `You have sent several messages in a short time. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before sending another one.`,
} as const;

/** The modal closes this long after 'Message Sent!' (spec 01 §4, §9). */
export const CONTACT_CLOSE_DELAY_MS = 2000;
