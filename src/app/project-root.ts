import { projectRootOf } from '../runtime/source-tree.ts';

/** The repository root: bots/, matches/ and the default leaderboard.db live here (from src/ or dist/ alike). */
export const PROJECT_ROOT = projectRootOf(import.meta.url);
