/**
 * Admin: support messages in reply-by order (overdue first, marked, then the soonest due; answered ones
 * last), each with its thread and a reply form. Its filter stays in the component, not the URL: the
 * Messages page keeps `?tab=` and `?page=` for the Contact Us requests below it.
 */
import {
  type AdminSupportMessageView,
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  type SupportFilter,
  type SupportReplyInput,
  supportReplySchema,
} from '@tunedrop/shared/schemas/support';
import { Inbox, Reply } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { CountTabs } from '../../../components/ui/count-tabs';
import { Field, Textarea } from '../../../components/ui/input';
import { Pager } from '../../../components/ui/pager';
import { notify } from '../../../components/ui/toast';
import { pageCountOf } from '../../../components/ui/use-list-params';
import { errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useAdminSupportMessages, useReplyToSupportMessage } from '../api/admin-support-messages';
import { SupportThread, ThreadStatus } from './support-thread';

// Named apart from the Contact Us tabs on the same page (Open / Handled / All).
const tabs: { id: SupportFilter; label: string }[] = [
  { id: 'open', label: 'To answer' },
  { id: 'answered', label: 'Answered' },
  { id: 'all', label: 'Every message' },
];

export function AdminSupportMessages() {
  const [status, setStatus] = useState<SupportFilter>('open');
  const [page, setPage] = useState(1);
  const { data, isPending, isError, error, isPlaceholderData } = useAdminSupportMessages({ status, page });
  const pageCount = data ? pageCountOf(data.total, data.pageSize) : 1;
  const counts = data
    ? { open: data.counts.open, answered: data.counts.answered, all: data.counts.open + data.counts.answered }
    : undefined;

  return (
    <section aria-labelledby="support-messages-title" className="space-y-3">
      <div>
        <h2 id="support-messages-title" className="text-xl font-semibold text-white">
          Support messages
        </h2>
        <p className="mt-1 text-sm text-zinc-400">
          Written from Help in the dashboard. Each has the reply-by time of its plan; the overdue ones come
          first.
          {data && data.counts.overdue > 0 ? (
            <span className="ml-1 font-medium text-red-300" data-testid="overdue-count">
              {data.counts.overdue} overdue.
            </span>
          ) : null}
        </p>
      </div>
      <CountTabs
        label="Filter support messages"
        tabs={tabs}
        value={status}
        onValueChange={(next) => {
          setStatus(next);
          setPage(1);
        }}
        counts={counts}
      >
        {isPending ? (
          <PageLoader />
        ) : isError ? (
          <p role="alert" className="mt-4 text-red-300">
            {errorMessage(error, 'Failed to load support messages.')}
          </p>
        ) : data.items.length === 0 ? (
          <div className="mt-6 flex flex-col items-center gap-2 text-center text-zinc-400">
            <Inbox aria-hidden className="size-10" />
            <p>{status === 'open' ? 'No messages waiting for a reply.' : 'No messages here yet.'}</p>
          </div>
        ) : (
          <ul aria-label="Support messages" className={cn('space-y-4', isPlaceholderData && 'opacity-60')}>
            {data.items.map((item) => (
              <li key={item.id}>
                <SupportMessageCard item={item} />
              </li>
            ))}
          </ul>
        )}
      </CountTabs>
      {pageCount > 1 ? <Pager page={page} pageCount={pageCount} onPageChange={setPage} /> : null}
    </section>
  );
}

function SupportMessageCard({ item }: { item: AdminSupportMessageView }) {
  const [isReplying, setIsReplying] = useState(false);
  return (
    <Card className={cn(item.isOverdue && 'border-red-500/60')} data-testid="support-message">
      <p className="mb-2 text-sm text-zinc-300">
        From {item.userName} ·{' '}
        <a className="break-all text-brand-300 hover:underline" href={`mailto:${item.userEmail}`}>
          {item.userEmail}
        </a>
      </p>
      <SupportThread
        thread={item}
        headingLevel={3}
        status={<ThreadStatus answeredAt={item.answeredAt} isOverdue={item.isOverdue} />}
        extra={
          isReplying ? (
            <ReplyForm id={item.id} subject={item.subject} onDone={() => setIsReplying(false)} />
          ) : (
            <Button
              variant={item.answeredAt ? 'outline' : 'primary'}
              size="sm"
              onClick={() => setIsReplying(true)}
            >
              <Reply aria-hidden className="size-4" /> {item.answeredAt ? 'Reply again' : 'Reply'}
            </Button>
          )
        }
      />
    </Card>
  );
}

function ReplyForm({ id, subject, onDone }: { id: string; subject: string; onDone: () => void }) {
  const reply = useReplyToSupportMessage();
  const form = useZodForm(supportReplySchema, { defaultValues: { body: '' } satisfies SupportReplyInput });
  const error = form.formState.errors.body?.message;
  const fieldId = `reply-${id}`;
  const onSubmit = form.handleSubmit((values) =>
    reply.mutate(
      { id, body: values.body },
      {
        onSuccess: () => {
          notify.success(SUPPORT_MESSAGES.replySent, `Re: ${subject}`);
          onDone();
        },
        onError: (failure) => notify.error(errorMessage(failure, 'Failed to send the reply.')),
      },
    ),
  );
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2" aria-label={`Reply to ${subject}`}>
      <Field id={fieldId} label="Your reply (mailed to the artist)" error={error}>
        <Textarea
          id={fieldId}
          rows={5}
          maxLength={SUPPORT_LIMITS.replyMaxLength}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          {...form.register('body')}
        />
      </Field>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={reply.isPending}>
          {reply.isPending ? 'Sending...' : 'Send reply'}
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
