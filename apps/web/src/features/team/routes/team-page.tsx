/**
 * /dashboard/team (issue 27, record 202): the account's owner and members with their roles, pending
 * invitations, and for the owner an invitation form (email and role) within the plan's member limit and
 * the transfer of ownership to a member; changing a member's role; a member may leave (record 205). Each
 * asks first. Members see the
 * team read-only. The server enforces every role; this page only shows what it allows.
 */
import {
  type InviteMemberInput,
  inviteMemberSchema,
  MEMBER_ROLES,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
  TEAM_TEXTS,
  type TeamMember,
} from '@tunedrop/shared/schemas/team';
import { Users } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Field, Input, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { useZodForm } from '../../../lib/use-zod-form';
import { useViewer } from '../../../lib/viewer';
import {
  useInviteMember,
  useLeaveAccount,
  useRemoveMember,
  useTeam,
  useTransferOwnership,
  useWithdrawTeamInvitation,
} from '../api/team';
import { ChangeRoleDialog } from '../components/change-role-dialog';

export default function TeamPage() {
  usePageTitle('Team');
  const team = useTeam();
  const invite = useInviteMember();
  const withdraw = useWithdrawTeamInvitation();
  const remove = useRemoveMember();
  const transfer = useTransferOwnership();
  const leave = useLeaveAccount();
  const navigate = useNavigate();
  const { data: viewer } = useViewer();
  const [transferTo, setTransferTo] = useState<TeamMember | null>(null);
  const [roleOf, setRoleOf] = useState<TeamMember | null>(null);
  const [isLeaving, setIsLeaving] = useState(false);
  const form = useZodForm(inviteMemberSchema, {
    defaultValues: { email: '', role: 'viewer' } satisfies InviteMemberInput,
  });

  if (team.isPending) return <PageLoader />;
  if (team.isError)
    return (
      <p role="alert" className="text-zinc-300">
        {team.error.message}
      </p>
    );
  const data = team.data;
  const isOwner = data.viewerRole === 'owner';
  const used = data.members.length - 1 + data.invitations.length;
  // The founder of a transferred account stays on it: it is their sign-in's own account (record 205).
  const canLeave =
    !isOwner && viewer !== undefined && viewer !== null && viewer.account.id !== viewer.user.id;

  const confirmTransfer = () => {
    if (!transferTo) return;
    const name = transferTo.name;
    transfer.mutate(transferTo.userId, {
      onSuccess: () => {
        setTransferTo(null);
        notify.success(TEAM_TEXTS.transferred(name));
      },
      onError: (error) => {
        setTransferTo(null);
        notify.error(errorMessage(error, 'Ownership could not be transferred.'));
      },
    });
  };
  const confirmLeave = () => {
    if (!viewer) return;
    leave.mutate(viewer.account.id, {
      onSuccess: () => {
        setIsLeaving(false);
        notify.success(TEAM_TEXTS.left(data.accountName));
        navigate(paths.dashboard);
      },
      onError: (error) => {
        setIsLeaving(false);
        notify.error(errorMessage(error, 'You could not leave the account.'));
      },
    });
  };

  const onSubmit = form.handleSubmit((values) =>
    invite.mutate(values, {
      onSuccess: () => {
        notify.success(`Invitation sent to ${values.email}.`);
        form.reset({ email: '', role: values.role });
      },
      onError: (error) => notify.error(errorMessage(error, 'The invitation could not be sent.')),
    }),
  );

  return (
    <div className="space-y-6">
      <div className="flex items-center gap-3">
        <Users aria-hidden className="size-7 text-brand-400" />
        <h1 className="text-2xl font-bold text-white">Team</h1>
      </div>
      <p className="text-zinc-300">
        People who work on <span className="font-semibold text-white">{data.accountName}</span>. Your role:{' '}
        <span className="font-semibold text-white">{ROLE_LABELS[data.viewerRole]}</span>.
      </p>

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold text-white">Members</h2>
        <ul className="divide-y divide-ink-800" data-testid="team-members">
          {data.members.map((member) => (
            <li key={member.userId} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="truncate text-white">{member.name}</p>
                <p className="truncate text-sm text-zinc-400">{member.email}</p>
              </div>
              <div className="flex items-center gap-3">
                <span className="text-sm text-zinc-200">{ROLE_LABELS[member.role]}</span>
                {isOwner && member.role !== 'owner' ? (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Change the role of ${member.email}`}
                    onClick={() => setRoleOf(member)}
                  >
                    Change role
                  </Button>
                ) : null}
                {isOwner && member.role !== 'owner' ? (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Make ${member.email} the owner`}
                    disabled={transfer.isPending}
                    onClick={() => setTransferTo(member)}
                  >
                    Make owner
                  </Button>
                ) : null}
                {isOwner && member.role !== 'owner' ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove ${member.email}`}
                    disabled={remove.isPending}
                    onClick={() =>
                      remove.mutate(member.userId, {
                        onError: (error) => notify.error(errorMessage(error, 'Could not remove the member.')),
                      })
                    }
                  >
                    Remove
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
        {data.invitations.length > 0 ? (
          <>
            <h3 className="text-sm font-medium text-zinc-400">Pending invitations</h3>
            <ul className="divide-y divide-ink-800" data-testid="team-invitations">
              {data.invitations.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <div className="min-w-0">
                    <p className="truncate text-white">{invitation.email}</p>
                    <p className="text-sm text-zinc-400">
                      {ROLE_LABELS[invitation.role]} · expires {formatDate(invitation.expiresAt)}
                    </p>
                  </div>
                  {isOwner ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Withdraw the invitation of ${invitation.email}`}
                      disabled={withdraw.isPending}
                      onClick={() => withdraw.mutate(invitation.id)}
                    >
                      Withdraw
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <p className="text-sm text-zinc-400">
          {used} of {data.limit} team places used on your plan (members and pending invitations).
        </p>
      </Card>

      {isOwner ? (
        <Card className="space-y-4">
          <h2 className="text-lg font-semibold text-white">Invite a member</h2>
          <form
            onSubmit={onSubmit}
            noValidate
            className="grid gap-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end"
          >
            <Field id="invite-email" label="Email" error={form.formState.errors.email?.message}>
              <Input id="invite-email" type="email" autoComplete="off" {...form.register('email')} />
            </Field>
            <Field id="invite-role" label="Role" error={form.formState.errors.role?.message}>
              <Select id="invite-role" {...form.register('role')}>
                {MEMBER_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {ROLE_LABELS[role]}
                  </option>
                ))}
              </Select>
            </Field>
            <Button type="submit" disabled={invite.isPending}>
              {invite.isPending ? 'Sending...' : 'Send invitation'}
            </Button>
          </form>
        </Card>
      ) : null}

      {canLeave ? (
        <Card className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 className="text-lg font-semibold text-white">Leave this account</h2>
            <p className="text-sm text-zinc-300">You will be back on your own account.</p>
          </div>
          <Button variant="danger" onClick={() => setIsLeaving(true)} disabled={leave.isPending}>
            Leave account
          </Button>
        </Card>
      ) : null}

      <ConfirmDialog
        open={transferTo !== null}
        onOpenChange={(open) => {
          if (!open) setTransferTo(null);
        }}
        title="Transfer ownership"
        description={transferTo ? TEAM_TEXTS.transferConfirm(transferTo.name) : ''}
        confirmLabel="Transfer ownership"
        onConfirm={confirmTransfer}
        isDestructive
        isPending={transfer.isPending}
      />
      <ChangeRoleDialog member={roleOf} onClose={() => setRoleOf(null)} />
      <ConfirmDialog
        open={isLeaving}
        onOpenChange={setIsLeaving}
        title="Leave account"
        description={TEAM_TEXTS.leaveConfirm(data.accountName)}
        confirmLabel="Leave account"
        onConfirm={confirmLeave}
        isDestructive
        isPending={leave.isPending}
      />

      <Card className="space-y-2">
        <h2 className="text-lg font-semibold text-white">What each role can do</h2>
        <dl className="space-y-2 text-sm">
          {(['owner', ...MEMBER_ROLES] as const).map((role) => (
            <div key={role} className="sm:flex sm:gap-3">
              <dt className="w-24 shrink-0 font-medium text-white">{ROLE_LABELS[role]}</dt>
              <dd className="text-zinc-300">{ROLE_DESCRIPTIONS[role]}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </div>
  );
}
