/** POST /api/contact: the Contact Us modal's request (spec 01 §7, served by our own API). */
import type { ContactRequestInput } from '@tunedrop/shared/schemas/site';
import { client, unwrap } from '../../../lib/api';

export function sendContactRequest(input: ContactRequestInput) {
  return unwrap(client.contact.$post({ json: input }));
}
