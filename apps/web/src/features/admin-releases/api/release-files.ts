/** Export (one ZIP streamed by the server) and single-file downloads through short-lived signed URLs. */
import { client, unwrap } from '../../../lib/api';

function startDownload(url: string, fileName?: string) {
  const link = document.createElement('a');
  link.href = url;
  if (fileName) link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Checks every file is there first, so a broken export fails with a message instead of a bad download. */
export async function exportRelease(releaseId: string) {
  const manifest = await unwrap(
    client.admin.releases[':id'].export.manifest.$get({ param: { id: releaseId } }),
  );
  startDownload(manifest.downloadUrl, manifest.fileName);
  return manifest;
}

export async function downloadReleaseFile(
  bucket: 'audio-files' | 'cover-art',
  path: string,
  fileName: string,
) {
  const { signedUrl } = await unwrap(client['admin-audio-signed-url'].$get({ query: { bucket, path } }));
  startDownload(signedUrl, fileName);
}
