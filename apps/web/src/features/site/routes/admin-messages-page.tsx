/** `/admin/messages` (admin only): Contact Us requests, newest first, marked as handled or reopened. */
import type { ContactRequestFilter, ContactRequestView } from '@tunedrop/shared/schemas/site';
import { ExternalLink, Inbox } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Badge, Card, PageLoader } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useContactRequests, useSetContactRequestHandled } from '../api/contact-requests';

const tabs: { value: ContactRequestFilter; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'handled', label: 'Handled' },
  { value: 'all', label: 'All' },
];

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export default function AdminMessagesPage() {
  usePageTitle('Contact Requests', 'Messages sent through the Contact Us form.');
  const [status, setStatus] = useState<ContactRequestFilter>('open');
  const [page, setPage] = useState(1);
  const { data, isPending, isError, error, isPlaceholderData } = useContactRequests({ status, page });
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  const countFor = (value: ContactRequestFilter) =>
    data ? (value === 'all' ? data.counts.open + data.counts.handled : data.counts[value]) : null;

  return (
    <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold text-white sm:text-3xl">Contact Requests</h1>
      <p className="mt-1 text-sm text-zinc-400">
        Messages sent through Contact Us on the public site. Each one is also mailed to the support address.
      </p>

      <fieldset className="mt-6 flex flex-wrap gap-2">
        <legend className="sr-only">Filter requests</legend>
        {tabs.map((tab) => {
          const count = countFor(tab.value);
          const isSelected = status === tab.value;
          return (
            <button
              key={tab.value}
              type="button"
              aria-pressed={isSelected}
              onClick={() => {
                setStatus(tab.value);
                setPage(1);
              }}
              className={cn(
                'rounded-lg px-3 py-1.5 text-sm font-medium transition-colors',
                isSelected ? 'bg-brand-600 text-white' : 'bg-ink-800 text-zinc-300 hover:text-white',
              )}
            >
              {tab.label}
              {count !== null ? ` (${count})` : ''}
            </button>
          );
        })}
      </fieldset>

      <section aria-label={`${tabs.find((tab) => tab.value === status)?.label} requests`}>
        {isPending ? (
          <PageLoader />
        ) : isError ? (
          <p role="alert" className="mt-8 text-red-300">
            {errorMessage(error, 'Failed to load contact requests.')}
          </p>
        ) : data.items.length === 0 ? (
          <div className="mt-10 flex flex-col items-center gap-2 text-center text-zinc-400">
            <Inbox aria-hidden className="size-10" />
            <p>{status === 'open' ? 'No open requests. You are all caught up.' : 'No requests here yet.'}</p>
          </div>
        ) : (
          <ul className={cn('mt-6 space-y-4', isPlaceholderData && 'opacity-60')}>
            {data.items.map((item) => (
              <li key={item.id}>
                <ContactRequestCard item={item} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {data && data.total > data.pageSize ? (
        <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-4">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Previous
          </Button>
          <p className="text-sm text-zinc-400">
            Page {page} of {pageCount}
          </p>
          <Button
            variant="outline"
            size="sm"
            disabled={page >= pageCount}
            onClick={() => setPage((p) => p + 1)}
          >
            Next
          </Button>
        </nav>
      ) : null}
    </main>
  );
}

function ContactRequestCard({ item }: { item: ContactRequestView }) {
  const setHandled = useSetContactRequestHandled();
  const isHandled = item.handledAt !== null;
  const toggle = () =>
    setHandled.mutate(
      { id: item.id, isHandled: !isHandled },
      {
        onSuccess: () =>
          notify.success(isHandled ? 'Request reopened' : 'Marked as handled', `${item.name}, ${item.email}`),
        onError: (error) => notify.error(errorMessage(error, 'Failed to update the contact request.')),
      },
    );

  return (
    <Card
      aria-label={`Request from ${item.name}`}
      className="flex flex-col gap-4 sm:flex-row sm:justify-between"
    >
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-lg font-semibold text-white">{item.name}</h2>
          <Badge tone={isHandled ? 'green' : 'yellow'}>{isHandled ? 'Handled' : 'Open'}</Badge>
        </div>
        <p className="text-sm text-zinc-300">{item.companyName}</p>
        <p className="text-sm">
          <a className="break-all text-brand-300 hover:underline" href={`mailto:${item.email}`}>
            {item.email}
          </a>
        </p>
        {item.links.length > 0 ? (
          <ul className="space-y-0.5 pt-1 text-sm" aria-label="Links">
            {item.links.map((link) => (
              <li key={link}>
                <a
                  className="inline-flex items-center gap-1 break-all text-zinc-300 hover:text-white hover:underline"
                  href={link}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                >
                  {link} <ExternalLink aria-hidden className="size-3 shrink-0" />
                </a>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-zinc-400">No links</p>
        )}
        <p className="pt-1 text-xs text-zinc-400">
          Received {dateTime.format(new Date(item.createdAt))}
          {item.handledAt
            ? ` · handled ${dateTime.format(new Date(item.handledAt))}${item.handledByName ? ` by ${item.handledByName}` : ''}`
            : ''}
        </p>
      </div>
      <div className="shrink-0">
        <Button
          variant={isHandled ? 'outline' : 'primary'}
          size="sm"
          disabled={setHandled.isPending}
          onClick={toggle}
        >
          {isHandled ? 'Reopen' : 'Mark as handled'}
        </Button>
      </div>
    </Card>
  );
}
