/**
 * /dashboard/help (issue 28): a signed-in user, whatever their plan state, writes to support and reads
 * their own messages with the replies. Reply-by times follow the plan (decision 173).
 */
import { SUPPORT_LIMITS, supportPlanOf } from '@tunedrop/shared/schemas/support';
import { Inbox } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer } from '../../../lib/viewer';
import { useSupportThreads } from '../api/help-messages';
import { SupportMessageForm } from '../components/support-message-form';
import { SupportThread, ThreadStatus } from '../components/support-thread';

const days = (count: number) => `${count} business day${count === 1 ? '' : 's'}`;

export default function HelpPage() {
  usePageTitle('Help');
  const threads = useSupportThreads();
  const { data: viewer } = useViewer();
  const plan = viewer ? supportPlanOf({ ...viewer.profile, roles: viewer.roles }) : null;

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-bold text-white">Help</h1>
        <p className="mt-1 text-sm text-zinc-400">
          Write to our support team. Pro members get a reply within{' '}
          {days(SUPPORT_LIMITS.replyBusinessDays.pro)}, Basic members within{' '}
          {days(SUPPORT_LIMITS.replyBusinessDays.basic)} (business days are Monday to Friday). Replies arrive
          by email and show here.
        </p>
        {plan ? (
          <p className="mt-2 text-sm text-zinc-200" data-testid="support-promise">
            On your {plan === 'pro' ? 'Pro' : 'Basic'} plan, we reply within{' '}
            {days(SUPPORT_LIMITS.replyBusinessDays[plan])}.
          </p>
        ) : null}
      </div>

      <Card className="space-y-4">
        <h2 className="text-lg font-semibold text-white">Write to support</h2>
        <SupportMessageForm />
      </Card>

      <section aria-labelledby="help-history-title" className="space-y-4">
        <h2 id="help-history-title" className="text-lg font-semibold text-white">
          Your messages
        </h2>
        {threads.isPending ? (
          <PageLoader />
        ) : threads.isError ? (
          <div role="alert" className="space-y-3 text-zinc-300">
            <p>{errorMessage(threads.error, 'Failed to load your messages.')}</p>
            <Button variant="outline" onClick={() => threads.refetch()}>
              Try again
            </Button>
          </div>
        ) : threads.data.items.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-6 text-center text-zinc-400">
            <Inbox aria-hidden className="size-10" />
            <p>No messages yet.</p>
          </div>
        ) : (
          <ul className="space-y-4">
            {threads.data.items.map((thread) => (
              <li key={thread.id}>
                <Card>
                  <SupportThread
                    thread={thread}
                    headingLevel={3}
                    status={<ThreadStatus answeredAt={thread.answeredAt} />}
                  />
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
