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

type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
type TeamRole = 'admin' | 'catalog' | 'finance' | 'viewer';

/**
 * Invites a new person (or `member`) to `owner`'s account with `role` and lets them accept; answers them
 * with `acting`, their cookie acting for the owner's account. Throws when a step is refused.
 */
export async function joinTeam(
  system: TestSystem,
  owner: Person,
  role: TeamRole,
  member?: Person,
): Promise<Person & { acting: string }> {
  const person = member ?? (await system.signedInUser({ subscription: 'inactive' }));
  const invited = await system.request('/api/team/invitations', {
    method: 'POST',
    cookie: owner.cookie,
    json: { email: person.email, role },
  });
  if (invited.status !== 201)
    throw new Error(`invitation refused (${invited.status}): ${await invited.text()}`);
  const token = await teamInvitationToken(system, person.email);
  const accepted = await system.request(`/api/team-invitations/${token}/accept`, {
    method: 'POST',
    cookie: person.cookie,
  });
  if (accepted.status !== 200)
    throw new Error(`acceptance refused (${accepted.status}): ${await accepted.text()}`);
  return { ...person, acting: `${person.cookie}; tunedrop.account=${owner.userId}` };
}
