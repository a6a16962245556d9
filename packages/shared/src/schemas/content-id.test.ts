import { describe, expect, it } from 'vitest';
import {
  CONTENT_ID_ELIGIBLE_ANSWERS,
  CONTENT_ID_MESSAGES,
  CONTENT_ID_QUESTIONS,
  contentIdAnswersSchema,
  youtubeChannelIdSchema,
} from './content-id';

describe('youtubeChannelIdSchema', () => {
  it.each([
    ['UC_x5XG1OV2P6uZZ5FSM9Ttw', true],
    ['UCabcdefghijklmnopqrstuv', true],
    ['UC-123456789012345678901', true],
    [' UC_x5XG1OV2P6uZZ5FSM9Ttw ', true],
    ['UC_x5XG1OV2P6uZZ5FSM9Tt', false],
    ['UC_x5XG1OV2P6uZZ5FSM9Ttww', false],
    ['uc_x5XG1OV2P6uZZ5FSM9Ttw', false],
    ['UC_x5XG1OV2P6uZZ5FSM9T w', false],
    ['UC_x5XG1OV2P6uZZ5FSM9T+w', false],
    ['', false],
  ])('%j → %s', (value, isValid) => {
    const result = youtubeChannelIdSchema.safeParse(value);
    expect(result.success).toBe(isValid);
    if (!result.success) expect(result.error.issues[0]?.message).toBe(CONTENT_ID_MESSAGES.channelInvalid);
  });
});

describe('contentIdAnswersSchema', () => {
  it('accepts the eligible answers', () => {
    expect(contentIdAnswersSchema.parse(CONTENT_ID_ELIGIBLE_ANSWERS)).toEqual(CONTENT_ID_ELIGIBLE_ANSWERS);
  });

  it('refuses every ineligible answer at once, each with its own reason', () => {
    const wrong = Object.fromEntries(
      CONTENT_ID_QUESTIONS.map((q) => [q.id, q.eligibleAnswer === 'yes' ? 'no' : 'yes']),
    );
    const result = contentIdAnswersSchema.safeParse(wrong);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual(
      CONTENT_ID_QUESTIONS.map((q) => [q.id, q.refusal]),
    );
  });

  it('asks for an answer that is missing or not yes/no', () => {
    const result = contentIdAnswersSchema.safeParse({ ...CONTENT_ID_ELIGIBLE_ANSWERS, isCover: 'maybe' });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['isCover'], message: CONTENT_ID_MESSAGES.answerRequired }),
    ]);
  });
});
