/**
 * /admin/messages (admin only): support messages from Help in the dashboard (issue 28), in reply-by order,
 * above the Contact Us requests of the public site.
 */
import { ContactRequestsSection } from '../../features/site';
import { AdminSupportMessages } from '../../features/support';
import { usePageTitle } from '../../lib/use-page-title';

export default function AdminMessagesPage() {
  usePageTitle('Messages', 'Support messages and Contact Us requests.');
  return (
    <div className="mx-auto max-w-5xl space-y-12">
      <h1 className="text-2xl font-bold text-white sm:text-3xl">Messages</h1>
      <AdminSupportMessages />
      <ContactRequestsSection />
    </div>
  );
}
