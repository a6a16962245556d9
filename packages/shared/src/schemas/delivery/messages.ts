/** Every message delivery shows, on both sides, and the host-key refusal (record 153). */
export const DELIVERY_MESSAGES = {
  upcTakenAtApproval:
    "This release's UPC is already used by another release. Reject it and ask the artist for another UPC.",
  registrantInvalid: 'Enter the ISRC registrant as country and registrant code, e.g. QZ-ABC.',
  upcPrefixInvalid: 'Enter the GS1 company prefix as 6 to 11 digits, e.g. 0614141.',
  dpidInvalid: 'Enter a DDEX Party ID: 18 characters starting with PADPIDA, e.g. PADPIDA2013042401U.',
  dpidCheckInvalid:
    'This DDEX Party ID has a wrong check character (the last one): copy it again from the DDEX registry.',
  senderNameRequired: 'Enter the DDEX sender name.',
  nameRequired: 'Enter a name for the target.',
  urlInvalid:
    'Enter a URL starting with sftp://user:password@host:port/path, s3://bucket/prefix or file:///absolute/path.',
  platformsRequired: 'Choose all platforms or at least one platform.',
  platformUnknown: 'Unknown platform.',
  targetNotFound: 'Delivery target not found.',
  targetNameTaken: 'A delivery target with this name already exists.',
  deliveryNotFound: 'Delivery not found.',
  attemptNotFound: 'Attempt not found.',
  packageGone: 'The package of this attempt is no longer kept.',
  retryNotAllowed: 'Only rejected or failed deliveries can be retried.',
  releaseNotFound: 'Release not found.',
  takedownNotAllowed: 'Only approved or live releases can be taken down.',
  deleteWhileAtStores:
    'This release was delivered to stores: take it down from every store first (Deliveries), then delete it.',
  storeNotSelected: 'This release is not distributed to that store.',
  storeAlreadyTakenDown: 'A takedown for this store is already requested or done.',
  needsCodesNotice:
    'Releases are waiting for codes: set the ISRC registrant and the UPC/GS1 company prefix in Settings, then they get codes on the next approval or with codes:backfill.',
  noTargetsNotice: 'No delivery target serves these stores yet: approved releases are not sent anywhere.',
  settingsSaved: 'Settings saved',
  targetSaved: 'Delivery target saved',
  targetDeleted: 'Delivery target removed',
  targetDisabled: 'Delivery target disabled: no new releases go there; updates and takedowns still do.',
  targetEnabled: 'Delivery target enabled',
  targetUnreachable: 'The target could not be reached, so it was not added',
  targetUnreachableEdit: 'The target could not be reached with these settings, so the change was not saved',
  retryQueued: 'Delivery queued again',
  takedownQueued: 'Takedown queued',
  storeTakedownRequested: 'Takedown requested for this store',
  storeTakedownReasonRequired: 'Give the artist a reason for keeping the release in this store.',
  storeTakedownNotRequested:
    'This takedown request has already been decided (or withdrawn). The list has been refreshed.',
  storeTakedownRejected: 'Takedown request rejected: the release stays in this store',
  hostKeyInvalid:
    'Enter the host key fingerprint as OpenSSH prints it (ssh-keygen -lf key.pub): SHA256: followed by 43 characters.',
  hostKeyOnlySftp: 'A host key fingerprint applies to sftp:// targets only.',
  hostKeyNotKnown: 'Not known yet: recorded at the first connection.',
} as const;

/** Why a target that still holds releases is not removed (record 177). */
export const targetHoldsMessage = (name: string, count: number) =>
  `${name} still holds ${count} release${count === 1 ? '' : 's'} (delivered and not taken down): disable it instead, or take ${count === 1 ? 'it' : 'them'} down there first.`;

/** What "take everything down, then remove" did (record 177). */
export const targetTakingDownMessage = (name: string, count: number) =>
  `${name} is disabled and a takedown is queued for each of its ${count} release${count === 1 ? '' : 's'}; remove it once they are taken down.`;

/**
 * The refusal when an SFTP server answers with another key than the target's pinned one (record 153).
 * Nothing, no password or key, was sent to that server.
 */
export const hostKeyChangedMessage = (input: {
  host: string;
  targetName: string;
  expected: string;
  received: string;
}) =>
  `The host key of ${input.host} changed (target "${input.targetName}"): expected ${input.expected}, received ${input.received}. Nothing was sent. If the store really changed its key, enter the new fingerprint on the target.`;

const countOf = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Who a target's removal reaches (issue 44): the releases it takes down or never sends, and their artists. */
export const removalImpactText = (impact: { releases: number; artists: number }) =>
  `${countOf(impact.releases, 'release', 'releases')} of ${countOf(impact.artists, 'artist', 'artists')}`;

/**
 * The refusal of a removal not confirmed with the counts the server finds now (issue 44): the admin sees who
 * is affected before the releases leave the store.
 */
export const removalNotConfirmedMessage = (name: string, impact: { releases: number; artists: number }) =>
  `Removing ${name} affects ${removalImpactText(impact)}, who are mailed which release leaves which store. Review the counts and confirm again.`;

/** A `file://` target outside the folder the server allows them in (record 227). */
export const targetFolderRefusedMessage = (folder: string, root: string) =>
  `The folder ${folder} is not inside ${root}, the only place folder targets may be (set by DELIVERY_FILE_ROOT).`;

/**
 * An SFTP or S3 host on the server's own or a private network (record 227): loopback, link-local (the
 * cloud metadata address among them) and private ranges are refused unless DELIVERY_ALLOWED_HOSTS names them.
 */
export const targetHostRefusedMessage = (host: string, address: string, kind: string) =>
  `${host} is ${host === address ? '' : `at ${address}, `}${kind}: delivery targets may not reach it unless the server's DELIVERY_ALLOWED_HOSTS allows it.`;
