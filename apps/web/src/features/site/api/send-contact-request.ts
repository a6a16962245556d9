/** POST /api/contact: the Contact Us modal's request (spec 01 §7, served by our own API). */
import type { ContactRequestInput } from '@tunedrop/shared/schemas/site';
import { api } from '../../../lib/api';

export function sendContactRequest(input: ContactRequestInput): Promise<{ id: string }> {
  return api<{ id: string }>('/api/contact', { method: 'POST', body: input });
}
