/**
 * The one place the web decides how a Pro-only thing is described (record 274): an owner reads the spec's
 * "Pro feature — upgrade to unlock" and is offered the upgrade; a team member (record 230) reads that the
 * account does not include it and its owner can add it, and is offered no upgrade.
 */
import { MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import { useViewer, viewerFacts } from './viewer';

export const PRO_FEATURE_TEXT = 'Pro feature — upgrade to unlock';

export type PlanLock = {
  /** Acting for someone else's account: no upgrade link, price or plan is shown. */
  isTeamMember: boolean;
  /** The short note beside a locked field or choice. */
  featureText: string;
};

export function usePlanLock(): PlanLock {
  const { data: viewer } = useViewer();
  const isTeamMember = viewer ? viewerFacts(viewer).isTeamMember : false;
  return { isTeamMember, featureText: isTeamMember ? MEMBER_LOCK_TEXTS.feature : PRO_FEATURE_TEXT };
}
