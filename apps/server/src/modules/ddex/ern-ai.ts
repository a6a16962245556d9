/**
 * A track's AI disclosure in the ERN (issue 41, record 295; the mapping and its sources are in
 * vendor/ddex/STORES-2026.md). ERN 4.3 with AVS 3 has no AI element or allowed value, so each part AI
 * made or helped with is a Contributor of the disclosing main artist with a `UserDefined` Role in the
 * sender's namespace, its value naming the AVS role it stands for ("AI:Lyricist"), and one DisplayCredits
 * line says it in words. A track with no AI use carries nothing (stores read no AI credit as none).
 */
import {
  AI_AREAS,
  type AiArea,
  type AiUsage,
  describeAiDisclosure,
} from '@tunedrop/shared/schemas/ai-disclosure';
import { el, type XmlElement } from './xml';

export type ErnAiDisclosure = { usage: AiUsage; areas: AiArea[] };

/** The AVS 3 ContributorRole each area stands for, carried after `AI:` in the UserDefinedValue. */
export const AI_AREA_ROLES: Record<AiArea, string> = {
  lyrics: 'Lyricist',
  composition: 'Composer',
  vocals: 'Vocalist',
  instruments: 'Instrumentalist',
  mastering: 'MasteringEngineer',
};

/** The value of a fully generated recording: every part, stated once. */
export const AI_GENERATED_VALUE = 'AI:GeneratedRecording';

export function aiUserDefinedValues(disclosure: ErnAiDisclosure | null | undefined): string[] {
  if (!disclosure || disclosure.usage === 'none') return [];
  if (disclosure.usage === 'generated') return [AI_GENERATED_VALUE];
  return AI_AREAS.filter((area) => disclosure.areas.includes(area)).map(
    (area) => `AI:${AI_AREA_ROLES[area]}`,
  );
}

/** The Contributor elements, numbered from `firstSequence`, credited to `partyReference`. */
export function aiContributors(
  disclosure: ErnAiDisclosure | null | undefined,
  options: { partyReference: string; namespace: string; firstSequence: number },
): XmlElement[] {
  return aiUserDefinedValues(disclosure).map((value, index) =>
    el(
      'Contributor',
      { SequenceNumber: options.firstSequence + index },
      el('ContributorPartyReference', options.partyReference),
      el('Role', { Namespace: options.namespace, UserDefinedValue: value }, 'UserDefined'),
    ),
  );
}

/** The words a store can show: "AI-assisted: Lyrics, Vocals" or "Fully AI-generated"; none for no AI. */
export function aiDisplayCredits(disclosure: ErnAiDisclosure | null | undefined): XmlElement | null {
  if (!disclosure || disclosure.usage === 'none') return null;
  return el(
    'DisplayCredits',
    { ApplicableTerritoryCode: 'Worldwide', IsDefault: true },
    el('DisplayCreditText', describeAiDisclosure(disclosure)),
  );
}
