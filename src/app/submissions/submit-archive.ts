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
import type { SubmissionRecord } from '../../store/submission-types.ts';
import { packVersion, storeVersion } from '../bots/version-store.ts';
import type { AppContext } from '../context.ts';
import { ownedName } from './submission-names.ts';
import { submissionsRoot, type SubmissionSettings } from './submission-settings.ts';
import type { Caller } from './submission-shapes.ts';

const HOUR_MS = 3600_000;

/** Refuses `caller` when over a limit: submissions this hour, a build still pending, stored bytes. */
export async function checkLimits(ctx: AppContext, caller: Caller, settings: SubmissionSettings, adding = 0): Promise<Result<void>> {
  const since = new Date(Date.now() - HOUR_MS).toISOString();
  const u = await ctx.store.submissions().usage(caller.name, since);
  if (u.recent >= settings.perHour) return reject('limit', `${caller.name} made ${u.recent} submissions in the last hour; at most ${settings.perHour} an hour: try again later`);
  if (u.pending > 0) return reject('limit', `one build at a time: a submission of ${caller.name} is still waiting or building; submit again when it is done`);
  if (u.bytes + adding > settings.storedBytes) {
    return reject('limit', `${caller.name} stores ${bytesText(u.bytes)} of versions; this one (${bytesText(adding)}) would pass the ${bytesText(settings.storedBytes)} allowed`);
  }
  return ok(undefined);
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
    const has = (await ctx.store.submissions().list(caller.name)).some((x) => x.version === version.value.hash);
    const roomy = await checkLimits(ctx, caller, settings, has ? 0 : version.value.data.length);
    if (!roomy.ok) return roomy;
    await storeVersion(ctx, version.value.hash, version.value.data);
    const now = new Date().toISOString();
    return ok(await ctx.store.submissions().add({ participant: caller.name, bot: named.value.name, version: version.value.hash, bytes: version.value.data.length }, now));
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(packed, { force: true });
  }
}
