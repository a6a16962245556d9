/**
 * The Contact Us requests of the admin Messages page (`app/pages/admin-messages-page.tsx`): newest first,
 * marked as handled or reopened; its tab and page stay in the URL (`?tab=`, `?page=`).
 */
import type { ContactRequestFilter, ContactRequestView } from '@tunedrop/shared/schemas/site';
import { ExternalLink, Inbox } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Badge, Card, PageLoader } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { CountTabs } from '../../../components/ui/count-tabs';
import { Pager } from '../../../components/ui/pager';
import { notify } from '../../../components/ui/toast';
import { pageCountOf, useListParams, usePageClamp } from '../../../components/ui/use-list-params';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useContactRequests, useSetContactRequestHandled } from '../api/contact-requests';

const tabs: { id: ContactRequestFilter; label: string }[] = [
  { id: 'open', label: 'Open' },
  { id: 'handled', label: 'Handled' },
  { id: 'all', label: 'All' },
];
const tabIds = tabs.map((tab) => tab.id);

export function ContactRequestsSection() {
  const list = useListParams<ContactRequestFilter>({ tabs: tabIds, defaultTab: 'open' });
  const { tab: status, page } = list;
  const { data, isPending, isError, error, isPlaceholderData } = useContactRequests({ status, page });
  const pageCount = data ? pageCountOf(data.total, data.pageSize) : undefined;
  usePageClamp(list, pageCount);
  const counts = data ? { ...data.counts, all: data.counts.open + data.counts.handled } : undefined;

  return (
    <section aria-labelledby="contact-requests-title">
      <h2 id="contact-requests-title" className="text-xl font-semibold text-white">
        Contact Requests
      </h2>
      <p className="mt-1 text-sm text-zinc-400">
        Messages sent through Contact Us on the public site. Each one is also mailed to the support address.
      </p>

      <div className="mt-6">
        <CountTabs
          label="Filter requests"
          tabs={tabs}
          value={status}
          onValueChange={list.setTab}
          counts={counts}
        >
          <section aria-label={`${tabs.find((tab) => tab.id === status)?.label} requests`}>
            {isPending ? (
              <PageLoader />
            ) : isError ? (
              <p role="alert" className="mt-8 text-red-300">
                {errorMessage(error, 'Failed to load contact requests.')}
              </p>
            ) : data.items.length === 0 ? (
              <div className="mt-10 flex flex-col items-center gap-2 text-center text-zinc-400">
                <Inbox aria-hidden className="size-10" />
                <p>
                  {status === 'open' ? 'No open requests. You are all caught up.' : 'No requests here yet.'}
                </p>
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
        </CountTabs>
      </div>

      <Pager className="mt-6" page={page} pageCount={pageCount ?? 1} onPageChange={list.setPage} />
    </section>
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
          <h3 className="text-lg font-semibold text-white">{item.name}</h3>
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
          Received {formatDateTime(item.createdAt)}
          {item.handledAt
            ? ` · handled ${formatDateTime(item.handledAt)}${item.handledByName ? ` by ${item.handledByName}` : ''}`
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
