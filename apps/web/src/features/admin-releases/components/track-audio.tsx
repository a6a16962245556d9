/** The audio's technical details and a player, so a moderator can listen before deciding. */
import { ADMIN_RELEASE_MESSAGES, type AdminTrack } from '@tunedrop/shared/schemas/admin-releases';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../components/ui/toast';
import { downloadReleaseFile } from '../api/release-files';
import { formatBytes, formatChannels, formatDuration, formatSampleRate } from '../lib/format';

export function TrackAudio({ track }: { track: AdminTrack }) {
  const [isDownloading, setIsDownloading] = useState(false);
  const download = async () => {
    setIsDownloading(true);
    try {
      await downloadReleaseFile('audio-files', track.fileKey, track.originalFileName);
    } catch {
      notify.error(
        ADMIN_RELEASE_MESSAGES.downloadFailed(track.title),
        ADMIN_RELEASE_MESSAGES.downloadErrorTitle,
      );
    } finally {
      setIsDownloading(false);
    }
  };
  return (
    <li className="space-y-2 rounded-lg border border-ink-700 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium text-white">
          {track.position}. {track.title}{' '}
          <span className="font-normal text-zinc-400">({formatDuration(track.durationMs)})</span>
        </p>
        <Button variant="ghost" size="sm" onClick={download} disabled={isDownloading}>
          <Download aria-hidden className="size-4" /> Download<span className="sr-only"> {track.title}</span>
        </Button>
      </div>
      <p className="text-xs text-zinc-400" data-testid="technical-details">
        {track.originalFileName} · WAV · {formatSampleRate(track.sampleRate)} ·{' '}
        {track.bitDepth ? `${track.bitDepth}-bit` : '—'} · {formatChannels(track.channels)} ·{' '}
        {formatBytes(track.fileSizeBytes)}
      </p>
      {/* biome-ignore lint/a11y/useMediaCaption: music under review has no captions */}
      <audio
        controls
        preload="none"
        src={track.audioUrl}
        aria-label={`Play ${track.title}`}
        className="w-full"
      />
    </li>
  );
}
