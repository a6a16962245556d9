/** Uploads and the builder API's answers: upload kinds and states, the saved draft's answer, a submitted release. */
import type { ReleaseStatus } from '../../constants';
import type { BuilderDraft } from './submission';

export const UPLOAD_KINDS = ['cover', 'audio'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export type UploadInfo = {
  id: string;
  kind: UploadKind;
  /** 'missing' when the server no longer has it (cleaned up or never created). */
  status: 'uploading' | 'checked' | 'rejected' | 'consumed' | 'missing';
  originalName: string;
  sizeBytes: number;
  /** Bytes the server holds so far (equal to sizeBytes once complete). */
  receivedBytes: number;
  error: string | null;
  details: Record<string, number | string> | null;
};

export type DraftAnswer = {
  draft: BuilderDraft | null;
  uploads: Record<string, UploadInfo>;
  /** The server's limits the browser pre-checks against. */
  limits: { maxWavBytes: number; coverMaxBytes: number };
};

export type SubmittedRelease = { id: string; title: string; status: ReleaseStatus; createdAt: string };
