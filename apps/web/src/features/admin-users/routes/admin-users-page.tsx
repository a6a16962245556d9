/** User Management (admin only): search, tabs with counts, server-side pages, roles and bans. */
import { ADMIN_USERS_TEXTS, USER_TABS, type UserTab } from '@tunedrop/shared/schemas/admin-users';
import { Search } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { PageLoader, Spinner } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { Input } from '../../../components/ui/input';
import { ReasonDialog } from '../../../components/ui/reason-dialog';
import { notify } from '../../../components/ui/toast';
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

const isTab = (value: string | null): value is UserTab => USER_TABS.some((tab) => tab.id === value);

export default function AdminUsersPage() {
  usePageTitle('User Management');
  const { data: viewer } = useViewer();
  const [params, setParams] = useSearchParams();
  const tab: UserTab = isTab(params.get('tab')) ? (params.get('tab') as UserTab) : 'all';
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [draft, setDraft] = useState(q);
  const users = useAdminUsers({ q, tab, page });
  const action = useUserAction();
  const [banTarget, setBanTarget] = useState<{ id: string; email: string } | null>(null);

  useEffect(() => {
    if (users.isError) notify.error('Failed to fetch users');
  }, [users.isError]);

  // Search as the admin types, a moment after they stop.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (draft.trim() === q) return;
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (draft.trim()) next.set('q', draft.trim());
        else next.delete('q');
        next.delete('page');
        return next;
      });
    }, 300);
    return () => clearTimeout(timer);
  }, [draft, q, setParams]);

  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      return next;
    });

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

  const data = users.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-3xl font-bold text-white">User Management</h1>
        <p className="mt-1 text-zinc-400">Search users, manage their access and bans.</p>
      </header>
      <div className="relative max-w-xl">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-500"
        />
        <Input
          type="search"
          aria-label="Search users by email, artist name or full name"
          placeholder="Search by email, artist name or full name"
          className="pl-9"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
      </div>
      <Tabs.Root
        value={tab}
        onValueChange={(value) => update({ tab: value === 'all' ? null : value, page: null })}
      >
        <Tabs.List aria-label="Filter users" className="flex flex-wrap gap-1 border-b border-ink-800">
          {USER_TABS.map((item) => (
            <Tabs.Trigger
              key={item.id}
              value={item.id}
              className={cn(
                '-mb-px flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium',
                tab === item.id
                  ? 'border-brand-400 text-white'
                  : 'border-transparent text-zinc-400 hover:text-white',
              )}
            >
              {item.label}
              <span
                className="rounded-full bg-ink-700 px-2 py-0.5 text-xs tabular-nums"
                data-testid={`count-${item.id}`}
              >
                {data?.counts[item.id] ?? '–'}
              </span>
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value={tab} className="pt-4 focus-visible:outline-none">
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
        </Tabs.Content>
      </Tabs.Root>
      {data && data.total > data.pageSize ? (
        <nav aria-label="Pages" className="flex items-center justify-between gap-3">
          <Button
            variant="outline"
            size="sm"
            disabled={page <= 1}
            onClick={() => update({ page: String(page - 1) })}
          >
            Previous
          </Button>
          <p className="text-sm text-zinc-400">
            Page {page} of {pageCount} · {data.total} users
          </p>
          <Button
            variant="outline"
            size="sm"
            disabled={page >= pageCount}
            onClick={() => update({ page: String(page + 1) })}
          >
            Next
          </Button>
        </nav>
      ) : null}
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
