/**
 * Email links (verification, email change) that stay safe even if APP_SECRET leaks (issue 22, decision 143).
 * better-auth's links are stateless JWTs: anyone who can sign one is believed, and a link works again
 * whenever the account's address matches again. Here every link better-auth mails is recorded (a SHA-256 of
 * the token, the account and the address it was issued for), and GET /api/auth/verify-email reaches
 * better-auth only for a recorded, unused link while the account still has that address. Using one link
 * spends every other link of the account: each use changes what the others were issued for.
 */
import { createHash } from 'node:crypto';
import { EMAIL_LINK_ERRORS, type EmailLinkError } from '@tunedrop/shared/schemas/auth';
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { DbOrTx } from '../../db/client';
import { emailTokens, user } from '../../db/schema';
import type { AppEnv } from '../../lib/context';

/** How long a mailed link is valid (better-auth's emailVerification.expiresIn uses the same figure). */
export const EMAIL_LINK_EXPIRES_IN_SECONDS = 24 * 60 * 60;

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Records a link better-auth is about to mail. `sentTo` is where it goes: the account's own address for a
 * verification, the new address for an email change. The address it is bound to is the one the account has
 * now, read here rather than from the token.
 */
export async function recordEmailToken(
  db: DbOrTx,
  input: { token: string; userId: string; sentTo: string },
): Promise<void> {
  const [account] = await db.select({ email: user.email }).from(user).where(eq(user.id, input.userId));
  if (!account) throw new Error(`no account ${input.userId} for an email link`);
  const email = account.email.toLowerCase();
  const sentTo = input.sentTo.trim().toLowerCase();
  await db
    .insert(emailTokens)
    .values({
      tokenHash: tokenHash(input.token),
      userId: input.userId,
      email,
      newEmail: sentTo === email ? null : sentTo,
      expiresAt: new Date(Date.now() + EMAIL_LINK_EXPIRES_IN_SECONDS * 1000),
    })
    .onConflictDoNothing();
}

/**
 * Spends a link: null when it may go on to better-auth, otherwise why not. A link never recorded and one
 * already used read the same (a forged link learns nothing). An expired link spends nothing.
 */
export async function spendEmailToken(db: DbOrTx, token: string): Promise<EmailLinkError | null> {
  const hash = tokenHash(token);
  const [row] = await db.select().from(emailTokens).where(eq(emailTokens.tokenHash, hash));
  if (!row) return 'EMAIL_LINK_USED';
  if (row.expiresAt.getTime() <= Date.now()) return 'EMAIL_LINK_EXPIRED';
  // One statement: of two clicks at once (or two links of one account) only one finds its row.
  const spent = await db
    .delete(emailTokens)
    .where(eq(emailTokens.userId, row.userId))
    .returning({ tokenHash: emailTokens.tokenHash });
  if (!spent.some((each) => each.tokenHash === hash)) return 'EMAIL_LINK_USED';
  const [account] = await db.select({ email: user.email }).from(user).where(eq(user.id, row.userId));
  if (account?.email.toLowerCase() !== row.email) return 'EMAIL_LINK_STALE';
  return null;
}

/**
 * GET /api/auth/verify-email: better-auth only sees a link this server mailed and nobody used. A refused
 * link never gets a session; a browser (the link carries a callbackURL) lands on the sign-in page, which
 * says why; any other caller gets 401 with the reason.
 */
export async function verifyEmailOnce(
  c: Context<AppEnv>,
  forward: (c: Context<AppEnv>) => Promise<Response>,
): Promise<Response> {
  const token = c.req.query('token');
  // Without a token better-auth answers its own validation error.
  if (!token) return forward(c);
  const refusal = await spendEmailToken(c.var.deps.db, token);
  if (!refusal) return forward(c);
  if (c.req.query('callbackURL') !== undefined) {
    return c.redirect(`/login?error=${refusal}`, 302);
  }
  return c.json({ error: { code: refusal, message: EMAIL_LINK_ERRORS[refusal] } }, 401);
}
