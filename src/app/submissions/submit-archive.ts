/**
 * Receiving a submission: the participant's limits first (nothing is unpacked for a participant over one),
 * then the archive unpacked by intake into a new folder, its manifest read, the owned name decided, the
 * bot packed canonically (its version = the sha256 of those bytes) and stored once, and the submission
 * recorded `received`. The upload's folder is removed whatever happens: what is built later is the stored
 * version, on this machine or any other.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { readBotFolder } from '../../intake/bot-folder.ts';
import { bytesText } from '../../intake/limits.ts';
import { unpackArchive } from '../../intake/unpack.ts';
import type { SubmissionRecord, SubmissionUsage } from '../../store/submission-types.ts';
import { packVersion, storeVersion } from '../bots/version-store.ts';
import type { AppContext } from '../context.ts';
import { ownedName } from './submission-names.ts';
import { submissionsRoot, type SubmissionSettings } from './submission-settings.ts';
import type { Caller } from './submission-shapes.ts';

const HOUR_MS = 3600_000;

/** Why `participant` with usage `u` may not add `adding` bytes more, or undefined when within every limit. */
export function overLimit(participant: string, u: SubmissionUsage, settings: SubmissionSettings, adding = 0): string | undefined {
  if (u.recent >= settings.perHour) return `${participant} made ${u.recent} submissions in the last hour; at most ${settings.perHour} an hour: try again later`;
  if (u.pending > 0) return `one build at a time: a submission of ${participant} is still waiting or building; submit again when it is done`;
  if (u.bytes + adding > settings.storedBytes) {
    return `${participant} stores ${bytesText(u.bytes)} of versions; this one (${bytesText(adding)}) would pass the ${bytesText(settings.storedBytes)} allowed`;
  }
  return undefined;
}

const hourAgo = (): string => new Date(Date.now() - HOUR_MS).toISOString();

/** Refuses `caller` (`limit`, HTTP 429) when over a limit: submissions this hour, a build still pending, stored bytes. */
export async function checkLimits(ctx: AppContext, caller: Caller, settings: SubmissionSettings): Promise<Result<void>> {
  const why = overLimit(caller.name, await ctx.store.submissions().usage(caller.name, hourAgo()), settings);
  return why === undefined ? ok(undefined) : reject('limit', why);
}

/** Unpacks, names, stores and records one archive (see the module comment). */
export async function receiveArchive(ctx: AppContext, caller: Caller, archive: string, settings: SubmissionSettings): Promise<Result<SubmissionRecord>> {
  const limited = await checkLimits(ctx, caller, settings);
  if (!limited.ok) return limited;
  const intake = join(submissionsRoot(ctx), 'intake');
  mkdirSync(intake, { recursive: true, mode: 0o700 });
  const id = `${Date.now()}-${randomBytes(8).toString('hex')}`;
  const folder = join(intake, id);
  const packed = join(intake, `${id}.tar.gz`);
  try {
    const unpacked = await unpackArchive(archive, folder, settings.intake);
    // The archive's own length over its cap is HTTP 413; every other refusal of its contents is 400.
    if (!unpacked.ok) return unpacked.reason.startsWith('the archive is ') ? reject('too-large', unpacked.reason) : unpacked;
    const bot = readBotFolder(unpacked.value.folder);
    if (!bot.ok) return bot;
    const named = await ownedName(ctx, caller, bot.value.manifest);
    if (!named.ok) return named;
    const version = await packVersion(bot.value.folder, packed, bot.value.manifest.exclude, settings.intake);
    if (!version.ok) return version;
    // A version the participant stores already costs nothing more.
    const store = ctx.store.submissions();
    const adding = (await store.list(caller.name)).some((x) => x.version === version.value.hash) ? 0 : version.value.data.length;
    const since = hourAgo();
    const early = overLimit(caller.name, await store.usage(caller.name, since), settings, adding);
    if (early !== undefined) return reject('limit', early);
    await storeVersion(ctx, version.value.hash, version.value.data);
    // Checked again under the store's lock with the insert: two uploads at once cannot both pass.
    let why: string | undefined;
    const added = await store.add({ participant: caller.name, bot: named.value.name, version: version.value.hash, bytes: version.value.data.length }, new Date().toISOString(), {
      since,
      ok: (u) => (why = overLimit(caller.name, u, settings, adding)) === undefined,
    });
    return added ? ok(added) : reject('limit', why ?? 'over a limit');
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(packed, { force: true });
  }
}
