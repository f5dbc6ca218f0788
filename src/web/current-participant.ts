/**
 * The participant signed in on the request being handled, kept on hono's context (its context storage, so
 * the page shell can show the name without every page passing it along).
 */
import { tryGetContext } from 'hono/context-storage';
import type { ParticipantRecord } from '../app/participants/participants.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** The signed-in participant of this request, if any. */
    participant?: ParticipantRecord;
  }
}

/** The participant signed in on the request being rendered, or undefined (none, or outside a request). */
export function currentParticipant(): ParticipantRecord | undefined {
  return tryGetContext()?.get('participant');
}
