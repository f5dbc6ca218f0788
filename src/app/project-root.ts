import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: bots/, matches/ and the default leaderboard.db live here. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
