/**
 * The participants' tables behind the Store (issue 32): who may sign in, each with the hash of their token,
 * and the signed-in sessions of the web view, each kept as the hash of its id. Neither a token nor a session
 * id is ever stored: a copy of the database signs no one in.
 */

/** A participant as every reader sees it (never with its token hash). */
export interface ParticipantRecord {
  readonly name: string;
  readonly admin: boolean;
  /** ISO time of creation. */
  readonly createdAt: string;
  /** ISO time of revocation; absent while the participant's token works. */
  readonly revokedAt?: string;
}

/** A new participant: its name, whether an admin, and the hash of its token (hex sha256). */
export interface NewParticipant {
  readonly name: string;
  readonly admin: boolean;
  readonly tokenHash: string;
}

/** A participant found by token hash, with the stored hash the caller compares again in constant time. */
export interface ParticipantByToken extends ParticipantRecord {
  readonly tokenHash: string;
}

/** A session: the hash of its id (hex sha256), whose it is, and when it expires (ISO). */
export interface NewSession {
  readonly idHash: string;
  readonly participant: string;
  readonly expiresAt: string;
}

/** The participants' and sessions' tables of one store. */
export interface ParticipantStore {
  /** Adds a participant; false (nothing written) when the name is taken. */
  add(p: NewParticipant): Promise<boolean>;
  /** Every participant, by name. */
  list(): Promise<ParticipantRecord[]>;
  /** The participant (revoked or not) holding this token hash. */
  byTokenHash(tokenHash: string): Promise<ParticipantByToken | undefined>;
  /** Revokes a participant at `at` (ISO) and ends its sessions; false when there is none or it was revoked. */
  revoke(name: string, at: string): Promise<boolean>;
  /** Stores a session; expired sessions are deleted on the way. */
  addSession(s: NewSession, now: string): Promise<void>;
  /** The participant of a live session (not expired at `now`, participant not revoked), else undefined. */
  session(idHash: string, now: string): Promise<ParticipantRecord | undefined>;
  /** Ends a session; false when there was none. */
  removeSession(idHash: string): Promise<boolean>;
}
