/**
 * Folders the server reads at run time. Found by walking up from this file to the folder holding
 * `drizzle/meta/_journal.json` (apps/server), so the same code works from src/ under tsx and from any
 * file of the esbuild bundle in dist/ (record 093).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findServerRoot(): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'drizzle', 'meta', '_journal.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`apps/server/drizzle not found above ${start}`);
  }
}

/** apps/server */
export const serverRoot = findServerRoot();
/** The committed SQL migrations (apps/server/drizzle). */
export const migrationsFolder = path.join(serverRoot, 'drizzle');
/** The built web app (apps/web/dist), served when it exists. */
export const webDistDir = path.resolve(serverRoot, '../web/dist');
