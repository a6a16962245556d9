/** Team tests' helpers (issue 27, records 202 and 205). */
import { desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../db/schema';
import type { TestSystem } from './harness';

/** The token in the latest team invitation mail sent to `email`. */
export async function teamInvitationToken(system: TestSystem, email: string): Promise<string> {
  const [mail] = await system.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, email))
    .orderBy(desc(mailOutbox.createdAt));
  const match = /\/team\/invitations\/([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '');
  if (!match?.[1]) throw new Error(`no team invitation mail for ${email}`);
  return match[1];
}
