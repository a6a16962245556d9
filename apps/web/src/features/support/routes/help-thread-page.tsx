/** /dashboard/help/:id: one of the user's own support threads, the page a reply mail links to. */
import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useSupportThread } from '../api/help-messages';
import { SupportThread, ThreadStatus } from '../components/support-thread';

export default function HelpThreadPage() {
  const { id = '' } = useParams();
  const thread = useSupportThread(id);
  usePageTitle(thread.data ? thread.data.subject : 'Help');

  return (
    <div className="space-y-6">
      <Link to={paths.help} className={buttonClass('ghost', 'sm')}>
        <ArrowLeft aria-hidden className="size-4" /> All messages
      </Link>
      <h1 className="text-2xl font-bold text-white">Help</h1>
      {thread.isPending ? (
        <PageLoader />
      ) : thread.isError ? (
        <p role="alert" className="text-zinc-300">
          {errorMessage(thread.error, 'Failed to load this message.')}
        </p>
      ) : (
        <Card>
          <SupportThread
            thread={thread.data}
            headingLevel={2}
            status={<ThreadStatus answeredAt={thread.data.answeredAt} />}
          />
        </Card>
      )}
    </div>
  );
}
