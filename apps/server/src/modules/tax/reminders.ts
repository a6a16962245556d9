/**
 * Reminders before a W-8 expires (issue 38): 90, 30 and 7 days before the end of its third calendar year,
 * one mail each per form (a `tax_form_reminders` row written with the mail, in one transaction), however
 * often the daily run runs; a run that missed a day still sends the latest reminder due, once.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profiles, taxFormReminders, taxForms } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import { emitWebhookEvent } from '../webhook-outbox';
import { daysUntil, W8_REMINDER_DAYS } from './standing';

export async function sendW8Reminders(db: Db, appUrl: string, now = new Date()): Promise<number> {
  const horizon = new Date(now.getTime() + W8_REMINDER_DAYS[0] * 86_400_000).toISOString().slice(0, 10);
  const due = await db
    .select({
      id: taxForms.id,
      userId: taxForms.userId,
      kind: taxForms.kind,
      expiresOn: taxForms.expiresOn,
      email: profiles.email,
      name: taxForms.name,
    })
    .from(taxForms)
    .innerJoin(profiles, eq(profiles.id, taxForms.userId))
    .where(
      and(
        eq(taxForms.status, 'active'),
        isNotNull(taxForms.expiresOn),
        sql`${taxForms.expiresOn} <= ${horizon}`,
        sql`${taxForms.expiresOn} >= ${now.toISOString().slice(0, 10)}`,
      ),
    );
  let sent = 0;
  for (const form of due) {
    if (!form.expiresOn) continue;
    const left = daysUntil(form.expiresOn, now);
    // The smallest step the form has reached: at 25 days left, the 30-day reminder (the 90-day one if missed is skipped).
    const step = [...W8_REMINDER_DAYS].reverse().find((days) => left <= days);
    if (step === undefined) continue;
    await db.transaction(async (tx) => {
      const [claimed] = await tx
        .insert(taxFormReminders)
        .values({ formId: form.id, daysBefore: step })
        .onConflictDoNothing()
        .returning({ formId: taxFormReminders.formId });
      if (!claimed) return;
      const label = form.kind === 'w8bene' ? 'W-8BEN-E' : 'W-8BEN';
      await enqueueMail(tx, {
        to: form.email,
        subject: `Your Form ${label} expires on ${form.expiresOn}`,
        text: [
          `Hello ${form.name},`,
          '',
          `Your Form ${label} on Tunedrop expires on ${form.expiresOn} (in ${left} day${left === 1 ? '' : 's'}).`,
          'After that date 30% US tax is withheld from the US part of your payouts until you sign a new one.',
          '',
          `Sign a new form on your Royalties page: ${appUrl}/dashboard/royalties`,
        ].join('\n'),
      });
      // The same step as the mail, to the payee's endpoints (issue 40).
      await emitWebhookEvent(tx, form.userId, 'payee.tax_form.expiring', {
        taxFormId: form.id,
        kind: form.kind,
        expiresOn: form.expiresOn,
        daysBefore: step,
      });
      sent += 1;
    });
  }
  return sent;
}
