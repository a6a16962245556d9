/**
 * Acknowledgement files (ERN-CHOREOGRAPHY.md §4): the current `AcknowledgementMessage` (ern-c-sftp/18,
 * ≈ ECHO 1.7) and the older `FtpAcknowledgementMessage` / `ErnAcknowledgementStatusMessage`. Anything
 * that is not well-formed XML of one of these is `malformed` (kept and shown, never thrown).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type ParsedAck =
  | { kind: 'malformed'; reason: string }
  | {
      kind: 'ack';
      /** One entry per acknowledged message (an ack without MessageIds yields one entry with null). */
      items: { messageId: string | null; isAccepted: boolean; status: string; errorText: string | null }[];
    };

const OK_STATUSES = new Set([
  'FileOK',
  'SuccessfullyIngestedByReleaseDistributor',
  'ReleaseReceivedByReleaseDistributor',
  'DeliveredToReleaseDistributor',
  'ReleaseStagedForPublication',
  'ReleaseMadeAvailableToConsumers',
]);

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['ReleaseStatus', 'Acknowledgement', 'MessageStatus'].includes(name),
  parseTagValue: false,
});

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** An element as the parser gives it; a text-only one (a string) reads as an element with no children. */
const node = (value: unknown): Node => (isNode(value) ? value : {});
const text = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value).trim();
  if (isNode(value) && '#text' in value) return String(value['#text']).trim();
  return null;
};
const asArray = (value: unknown): Node[] => (Array.isArray(value) ? value : value ? [value] : []).map(node);

export function parseAck(xml: string): ParsedAck {
  if (xml.trim() === '') return { kind: 'malformed', reason: 'The file is empty.' };
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    return { kind: 'malformed', reason: `Not well-formed XML: ${valid.err.msg} (line ${valid.err.line})` };
  let doc: Node;
  try {
    doc = node(parser.parse(xml));
  } catch (error) {
    return { kind: 'malformed', reason: `Unreadable XML: ${error instanceof Error ? error.message : error}` };
  }
  const current = doc.AcknowledgementMessage ? node(doc.AcknowledgementMessage) : undefined;
  if (current) {
    const items: Extract<ParsedAck, { kind: 'ack' }>['items'] = [];
    for (const status of asArray(current.ReleaseStatus)) {
      const releaseStatus = text(status.ReleaseStatus) ?? '';
      const errorText = text(status.ErrorText);
      const acks = asArray(status.Acknowledgement);
      if (acks.length === 0) {
        items.push({
          messageId: null,
          isAccepted: OK_STATUSES.has(releaseStatus),
          status: releaseStatus,
          errorText,
        });
      }
      for (const ack of acks) {
        const statuses = asArray(ack.MessageStatus).map((s) => ({
          status: text(s.Status) ?? '',
          info: text(s.Information),
        }));
        const bad = statuses.find((s) => !OK_STATUSES.has(s.status));
        const isAccepted = !bad && (releaseStatus === '' || OK_STATUSES.has(releaseStatus));
        items.push({
          messageId: text(ack.MessageId),
          isAccepted,
          status: bad?.status ?? (releaseStatus || statuses[0]?.status || ''),
          errorText: isAccepted ? null : (errorText ?? bad?.info ?? releaseStatus ?? null),
        });
      }
    }
    if (items.length === 0) return { kind: 'malformed', reason: 'The acknowledgement has no ReleaseStatus.' };
    return { kind: 'ack', items };
  }
  const olderMessage = doc.FtpAcknowledgementMessage ?? doc.ErnAcknowledgementStatusMessage;
  const older = olderMessage ? node(olderMessage) : undefined;
  if (older) {
    const status = text(older.FileStatus) ?? text(older.ReleaseStatus) ?? '';
    if (!status) return { kind: 'malformed', reason: 'The acknowledgement has no FileStatus.' };
    const isAccepted = OK_STATUSES.has(status);
    return {
      kind: 'ack',
      items: [
        {
          messageId: text(older.MessageId) ?? text(node(older.AcknowledgedFile).MessageId) ?? null,
          isAccepted,
          status,
          errorText: isAccepted ? null : (text(older.ErrorText) ?? status),
        },
      ],
    };
  }
  return {
    kind: 'malformed',
    reason: `Not an acknowledgement message (root ${Object.keys(doc).filter((k) => k !== '?xml')[0] ?? 'none'}).`,
  };
}
