/**
 * The project's bot-name rules. They live in src/intake (the lowest layer that needs them: a submitted
 * manifest is checked there, below app); app keeps this module so its callers import from one place.
 */
export { checkBotName, lookAlike, nameSkeleton } from '../intake/bot-name.ts';
