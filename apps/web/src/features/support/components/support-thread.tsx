/** One support message with its replies, oldest first: the Help history and the admin list show the same thread. */
import type { SupportThreadView } from '@tunedrop/shared/schemas/support';
import { SUPPORT_LIMITS } from '@tunedrop/shared/schemas/support';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/card';
import { formatDateTime } from '../../../lib/format';
import { currentSiteBrand } from '../../../lib/site-brand';

type HeadingLevel = 2 | 3;

const planLabel = (plan: SupportThreadView['plan']) => (plan === 'pro' ? 'Pro' : 'Basic');

/** "1 business day (Pro), counted in UTC": why the reply-by time is what it is. */
export function replyByRule(thread: Pick<SupportThreadView, 'plan' | 'timeZone'>): string {
  const days = SUPPORT_LIMITS.replyBusinessDays[thread.plan];
  return `${days} business day${days === 1 ? '' : 's'} (${planLabel(thread.plan)}), counted in ${thread.timeZone}`;
}

export function SupportThread({
  thread,
  headingLevel,
  status,
  extra,
}: {
  thread: SupportThreadView;
  headingLevel: HeadingLevel;
  /** The status badge(s) beside the subject. */
  status: ReactNode;
  /** What goes under the thread (the admin's reply form). */
  extra?: ReactNode;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article aria-label={thread.subject} className="space-y-4">
      <div className="space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <Heading className="break-words text-lg font-semibold text-white">{thread.subject}</Heading>
          <Badge tone={thread.plan === 'pro' ? 'brand' : 'neutral'}>{planLabel(thread.plan)}</Badge>
          {status}
        </div>
        <p className="text-xs text-zinc-400">
          Sent {formatDateTime(thread.createdAt)} ·{' '}
          <span data-testid="reply-by" title={replyByRule(thread)}>
            Reply by {formatDateTime(thread.replyBy)}
          </span>
        </p>
      </div>
      <p className="whitespace-pre-wrap break-words text-sm text-zinc-200">{thread.body}</p>
      {thread.replies.length > 0 ? (
        <ol aria-label="Replies" className="space-y-3 border-l-2 border-brand-600/40 pl-4">
          {thread.replies.map((reply) => (
            <li key={reply.id} className="space-y-1">
              <p className="text-xs text-zinc-400">
                <span className="font-medium text-brand-300">{reply.authorName}</span>,{' '}
                {currentSiteBrand().productName} support · {formatDateTime(reply.createdAt)}
              </p>
              <p className="whitespace-pre-wrap break-words text-sm text-zinc-100">{reply.body}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {extra}
    </article>
  );
}

/** Answered, or still awaiting a reply (overdue when its reply-by time has passed, for the admin). */
export function ThreadStatus({ answeredAt, isOverdue }: { answeredAt: string | null; isOverdue?: boolean }) {
  if (answeredAt) return <Badge tone="green">Answered</Badge>;
  if (isOverdue) return <Badge tone="red">Overdue</Badge>;
  return <Badge tone="yellow">Awaiting reply</Badge>;
}
