/**
 * The owner changes a member's role (record 202). A dialog rather than a select in the row: a native
 * select changes on arrow keys, and a role is only saved once the owner has read what the new role may
 * do and confirmed. A refusal is shown in the dialog, which stays open.
 */
import {
  MEMBER_ROLES,
  type MemberRole,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
  TEAM_TEXTS,
  type TeamMember,
} from '@tunedrop/shared/schemas/team';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useChangeMemberRole } from '../api/team';

const isMemberRole = (role: string): role is MemberRole => (MEMBER_ROLES as readonly string[]).includes(role);

export function ChangeRoleDialog({ member, onClose }: { member: TeamMember | null; onClose: () => void }) {
  return (
    <Dialog
      open={member !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Change role"
      description={
        member ? `${member.name} (${member.email}) is ${ROLE_LABELS[member.role]} now.` : undefined
      }
    >
      {/* Keyed by member: each opening starts from that member's role, without an old error. */}
      {member ? <ChangeRoleForm key={member.userId} member={member} onClose={onClose} /> : null}
    </Dialog>
  );
}

function ChangeRoleForm({ member, onClose }: { member: TeamMember; onClose: () => void }) {
  const change = useChangeMemberRole();
  const [role, setRole] = useState<MemberRole>(isMemberRole(member.role) ? member.role : 'viewer');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (role === member.role) {
      setError(TEAM_TEXTS.roleChangeSame);
      return;
    }
    setError(null);
    change.mutate(
      { userId: member.userId, role },
      {
        onSuccess: () => {
          notify.success(TEAM_TEXTS.roleChanged(member.name, ROLE_LABELS[role]));
          onClose();
        },
        onError: (failure) => setError(errorMessage(failure, TEAM_TEXTS.roleChangeFailed)),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field id="change-role" label="New role" error={error ?? undefined}>
        <Select
          id="change-role"
          value={role}
          onChange={(event) => {
            if (isMemberRole(event.target.value)) setRole(event.target.value);
          }}
        >
          {MEMBER_ROLES.map((option) => (
            <option key={option} value={option}>
              {ROLE_LABELS[option]}
            </option>
          ))}
        </Select>
      </Field>
      <p className="text-sm text-zinc-300" data-testid="change-role-rights">
        {ROLE_LABELS[role]}: {ROLE_DESCRIPTIONS[role]}
      </p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose} disabled={change.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? 'Saving...' : 'Change role'}
        </Button>
      </div>
    </form>
  );
}
