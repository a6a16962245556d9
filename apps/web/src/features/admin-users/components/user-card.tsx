/** One user in User Management: who they are, plan, roles, ban, and the admin's actions. */
import { PLAN_DETAILS } from '@tunedrop/shared';
import type { AdminUser } from '@tunedrop/shared/schemas/admin-users';
import { Ban, Crown, Shield, ShieldOff, Undo2, UserX } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Badge, Card } from '../../../components/ui/card';
import { formatCents, formatDate } from '../../../lib/format';
import type { UserAction } from '../api/admin-users';
import { AccountFeeField } from './account-fee-field';

export function UserCard({
  user,
  isSelf,
  isBusy,
  onAction,
  onBan,
}: {
  user: AdminUser;
  isSelf: boolean;
  isBusy: boolean;
  onAction: (action: UserAction) => void;
  onBan: (user: AdminUser) => void;
}) {
  const hasFreeAccess = user.roles.includes('free_access');
  const isModerator = user.roles.includes('moderator');
  const isAdmin = user.roles.includes('admin');
  const holdsNoPlan = user.subscriptionStatus === 'inactive';
  const planLabel = user.isPayee
    ? 'Payee'
    : user.teamOf
      ? `Team member of ${user.teamOf}`
      : (isAdmin || isModerator) && holdsNoPlan
        ? 'Staff'
        : (PLAN_DETAILS[user.plan]?.name ?? user.plan);
  return (
    <Card
      className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between"
      data-testid="user-card"
    >
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold text-white">{user.artistName}</h3>
          {/* Payees (record 175), team members and staff without a subscription (record 230) hold no plan. */}
          <Badge tone={planLabel === PLAN_DETAILS.pro.name ? 'brand' : 'neutral'}>{planLabel}</Badge>
          {isAdmin ? <Badge tone="red">Admin</Badge> : null}
          {isModerator ? <Badge tone="blue">Moderator</Badge> : null}
          {hasFreeAccess ? <Badge tone="green">Free Access</Badge> : null}
          {user.banned ? <Badge tone="red">Banned</Badge> : null}
          {isSelf ? <Badge tone="yellow">You</Badge> : null}
        </div>
        <p className="truncate text-sm text-zinc-300">
          {user.fullName} · {user.email}
        </p>
        <p className="text-xs text-zinc-400">
          Joined {formatDate(user.createdAt)} · Subscription {user.subscriptionStatus} · {user.releaseCount}{' '}
          release{user.releaseCount === 1 ? '' : 's'} · Balance {formatCents(user.balanceCents)}
        </p>
        {user.banned ? (
          <p className="text-sm text-red-300">
            Banned{user.bannedAt ? ` on ${formatDate(user.bannedAt)}` : ''}
            {user.banReason ? `: ${user.banReason}` : ''}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2 lg:justify-end">
        <Button
          size="sm"
          variant="outline"
          disabled={isBusy}
          onClick={() =>
            onAction({ kind: 'role', userId: user.id, role: 'free_access', isGranted: !hasFreeAccess })
          }
        >
          {hasFreeAccess ? (
            <UserX aria-hidden className="size-4" />
          ) : (
            <Crown aria-hidden className="size-4" />
          )}
          {hasFreeAccess ? 'Revoke Free Access' : 'Grant Free Access'}
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={isBusy}
          onClick={() =>
            onAction({ kind: 'role', userId: user.id, role: 'moderator', isGranted: !isModerator })
          }
        >
          {isModerator ? (
            <ShieldOff aria-hidden className="size-4" />
          ) : (
            <Shield aria-hidden className="size-4" />
          )}
          {isModerator ? 'Revoke Moderator' : 'Grant Moderator'}
        </Button>
        {user.banned ? (
          <Button
            size="sm"
            variant="secondary"
            disabled={isBusy}
            onClick={() => onAction({ kind: 'unban', userId: user.id })}
          >
            <Undo2 aria-hidden className="size-4" /> Unban
          </Button>
        ) : (
          <Button
            size="sm"
            variant="danger"
            disabled={isBusy || isSelf}
            title={isSelf ? 'You cannot ban yourself.' : undefined}
            onClick={() => onBan(user)}
          >
            <Ban aria-hidden className="size-4" /> Ban
          </Button>
        )}
      </div>
      <AccountFeeField userId={user.id} label={user.email} />
    </Card>
  );
}
