/** User Management (admin only): search, tabs with counts, server-side pages, roles and bans. */
import { ADMIN_USERS_TEXTS, USER_TABS, type UserTab } from '@tunedrop/shared/schemas/admin-users';
import { useEffect, useState } from 'react';
import { PageLoader, Spinner } from '../../../components/ui/card';
import { CountTabs } from '../../../components/ui/count-tabs';
import { Pager } from '../../../components/ui/pager';
import { ReasonDialog } from '../../../components/ui/reason-dialog';
import { SearchInput } from '../../../components/ui/search-input';
import { notify } from '../../../components/ui/toast';
import { pageCountOf, useListParams, usePageClamp } from '../../../components/ui/use-list-params';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer } from '../../../lib/viewer';
import { type UserAction, useAdminUsers, useUserAction } from '../api/admin-users';
import { UserCard } from '../components/user-card';

const FAILURES = {
  grant_free_access: 'Failed to grant free access',
  revoke_free_access: 'Failed to revoke free access',
  grant_moderator: 'Failed to grant moderator access',
  revoke_moderator: 'Failed to revoke moderator access',
  ban: 'Failed to ban user',
  unban: 'Failed to unban user',
} as const;

function describe(action: UserAction, email: string) {
  if (action.kind === 'role') {
    const key = `${action.isGranted ? 'grant' : 'revoke'}_${action.role}` as keyof typeof FAILURES;
    const what = action.role === 'free_access' ? 'free access' : 'moderator access';
    return {
      failure: FAILURES[key],
      success: action.isGranted
        ? { title: `Granted ${what}`, description: `${email} now has ${what}.` }
        : { title: `Revoked ${what}`, description: `${email} no longer has ${what}.` },
    };
  }
  if (action.kind === 'ban') {
    return {
      failure: FAILURES.ban,
      success: { title: 'User banned', description: `${email} has been banned.` },
    };
  }
  return {
    failure: FAILURES.unban,
    success: { title: 'User unbanned', description: `${email} has been unbanned.` },
  };
}

const tabIds = USER_TABS.map((item) => item.id);

export default function AdminUsersPage() {
  usePageTitle('User Management');
  const { data: viewer } = useViewer();
  const list = useListParams<UserTab>({ tabs: tabIds, defaultTab: 'all' });
  const { tab, q, page } = list;
  const users = useAdminUsers({ q, tab, page });
  const action = useUserAction();
  const [banTarget, setBanTarget] = useState<{ id: string; email: string } | null>(null);
  const data = users.data;
  const pageCount = data ? pageCountOf(data.total, data.pageSize) : undefined;
  usePageClamp(list, pageCount);

  useEffect(() => {
    if (users.isError) notify.error('Failed to fetch users');
  }, [users.isError]);

  const run = (item: UserAction, email: string) => {
    const text = describe(item, email);
    action.mutate(item, {
      onSuccess: () => {
        notify.success(text.success.title, text.success.description);
        setBanTarget(null);
      },
      onError: () => notify.error(text.failure),
    });
  };

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-3xl font-bold text-white">User Management</h1>
        <p className="mt-1 text-zinc-400">Search users, manage their access and bans.</p>
      </header>
      <SearchInput
        label="Search users by email, artist name or full name"
        placeholder="Search by email, artist name or full name"
        value={list.searchText}
        onChange={list.setSearchText}
        onSubmit={list.submitSearch}
      />
      <CountTabs
        label="Filter users"
        tabs={USER_TABS}
        value={tab}
        onValueChange={list.setTab}
        counts={data?.counts}
      >
        {users.isPending ? (
          <PageLoader />
        ) : !data ? (
          <p className="text-zinc-400">Users could not be loaded.</p>
        ) : data.users.length === 0 ? (
          <p className="text-zinc-400">No users match.</p>
        ) : (
          <div className="space-y-3">
            {users.isFetching ? <Spinner className="size-4 text-brand-400" label="Updating" /> : null}
            {data.users.map((user) => (
              <UserCard
                key={user.id}
                user={user}
                isSelf={user.id === viewer?.user.id}
                isBusy={action.isPending && action.variables?.userId === user.id}
                onAction={(item) => run(item, user.email)}
                onBan={(target) => setBanTarget({ id: target.id, email: target.email })}
              />
            ))}
          </div>
        )}
      </CountTabs>
      <Pager
        page={page}
        pageCount={pageCount ?? 1}
        onPageChange={list.setPage}
        detail={data ? `${data.total} users` : undefined}
      />
      <ReasonDialog
        open={banTarget !== null}
        onOpenChange={(open) => {
          if (!open) setBanTarget(null);
        }}
        title="Ban User"
        description={banTarget ? `${banTarget.email} will no longer be able to upload music.` : ''}
        label="Reason"
        confirmLabel="Ban User"
        pendingLabel="Banning..."
        requiredTitle={ADMIN_USERS_TEXTS.banReasonRequired.title}
        requiredMessage={ADMIN_USERS_TEXTS.banReasonRequired.description}
        isPending={action.isPending}
        onConfirm={(reason) =>
          banTarget && run({ kind: 'ban', userId: banTarget.id, reason }, banTarget.email)
        }
      />
    </div>
  );
}
