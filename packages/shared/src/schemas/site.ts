/**
 * The Contact Us request (spec 01 §2, §3, §5, §7) and the admin list of stored requests.
 * The modal relies on the browser's own checks ('No custom messages'); the server applies these.
 */
import { z } from 'zod';
import type { PageInfo } from '../paging';
import { safeText } from '../text';
import { CONTACT_LIMITS, CONTACT_MESSAGES } from './site-limits';

export { CONTACT_CLOSE_DELAY_MS, CONTACT_LIMITS, CONTACT_MESSAGES } from './site-limits';

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
};

export const contactLinkSchema = safeText()
  .max(CONTACT_LIMITS.linkMaxLength, CONTACT_MESSAGES.linkTooLong)
  .refine(isHttpUrl, CONTACT_MESSAGES.linkInvalid);

export const contactRequestSchema = z.object({
  // Names end up in a mail subject: the shared one-line rule, worded for this form.
  name: safeText(undefined, CONTACT_MESSAGES.singleLine)
    .trim()
    .min(1, CONTACT_MESSAGES.nameRequired)
    .max(CONTACT_LIMITS.nameMaxLength, CONTACT_MESSAGES.nameTooLong),
  companyName: safeText(undefined, CONTACT_MESSAGES.singleLine)
    .trim()
    .min(1, CONTACT_MESSAGES.companyRequired)
    .max(CONTACT_LIMITS.companyNameMaxLength, CONTACT_MESSAGES.companyTooLong),
  email: safeText()
    .trim()
    .max(CONTACT_LIMITS.emailMaxLength, CONTACT_MESSAGES.emailTooLong)
    .pipe(z.email(CONTACT_MESSAGES.emailInvalid)),
  // Empty entries are dropped (spec 01 §3) before the count and URL checks.
  links: z
    .array(safeText().max(CONTACT_LIMITS.linkMaxLength, CONTACT_MESSAGES.linkTooLong))
    .max(CONTACT_LIMITS.rawLinksMax, CONTACT_MESSAGES.tooManyLinks)
    .default([])
    .transform((links) => links.map((link) => link.trim()).filter((link) => link.length > 0))
    .pipe(z.array(contactLinkSchema).max(CONTACT_LIMITS.linksMax, CONTACT_MESSAGES.tooManyLinks)),
});

export type ContactRequestInput = z.input<typeof contactRequestSchema>;
export type ContactRequest = z.output<typeof contactRequestSchema>;

export const CONTACT_REQUEST_FILTERS = ['open', 'handled', 'all'] as const;
export type ContactRequestFilter = (typeof CONTACT_REQUEST_FILTERS)[number];

export const contactRequestListQuerySchema = z.object({
  status: z.enum(CONTACT_REQUEST_FILTERS).default('open'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const CONTACT_REQUESTS_PAGE_SIZE = 25;

export const contactRequestUpdateSchema = z.object({ isHandled: z.boolean() });
export type ContactRequestUpdate = z.infer<typeof contactRequestUpdateSchema>;

/** One stored request as the admin page shows it. */
export type ContactRequestView = {
  id: string;
  name: string;
  companyName: string;
  email: string;
  links: string[];
  createdAt: string;
  handledAt: string | null;
  handledByName: string | null;
};

export type ContactRequestList = PageInfo & {
  items: ContactRequestView[];
  counts: { open: number; handled: number };
};
