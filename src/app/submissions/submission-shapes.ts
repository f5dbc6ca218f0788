/** The shapes of the submission contract (submissions.ts re-exports them), in a file of their own so the room's files share them without an import circle. */

/** Where a submission is: received → building → checking → placing → placed, or failed (with a reason). */
export type SubmissionStatus = 'received' | 'building' | 'checking' | 'placing' | 'placed' | 'failed';

/** Who is asking: a signed-in participant (or an admin, who may see and act on everyone's). */
export interface Caller {
  readonly name: string;
  readonly admin: boolean;
}

/** One submission as its owner (or an admin) sees it. */
export interface SubmissionView {
  readonly id: number;
  readonly participant: string;
  /** The owned bot name, `alice/astar`. */
  readonly bot: string;
  /** The version: sha256 hex of the canonical file list and contents (src/intake/pack.ts). */
  readonly version?: string;
  readonly status: SubmissionStatus;
  /** Why it failed (one line), or what it waits for. */
  readonly reason?: string;
  /** Its number on the ladder ("alice/astar v3") once the ladder has seen it. */
  readonly ladderVersion?: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}
