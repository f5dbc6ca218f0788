import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { resolveTarget } from '../../app/submissions/credentials.ts';
import { packBot } from '../../app/submissions/pack-bot.ts';
import { fetchBuildLog, followSubmission, uploadArchive, type ApiTarget } from '../../app/submissions/submit-client.ts';
import type { SubmissionView } from '../../app/submissions/submissions.ts';
import { CliError } from '../errors.ts';
import { withInterrupt } from '../interrupt.ts';
import { durationFlag, usageExitsWith2 } from '../parse-flags.ts';
import { duration, liveLine } from '../progress.ts';

/** `arena submit`'s flags. */
interface SubmitFlags {
  archive?: string;
  server?: string;
  token?: string;
  json?: boolean;
  wait: boolean;
  poll?: string;
}

/** The one-line JSON `--json` prints: `{"submission","bot","version","status","reason"?}`. */
function finalJson(s: SubmissionView): string {
  return JSON.stringify({ submission: s.id, bot: s.bot, version: s.version ?? null, status: s.status, ...(s.reason ? { reason: s.reason } : {}) });
}

/** A refusal of the server as one line: usage mistakes exit 2, the rest 1. */
const refused = (r: { code: string; reason: string }, what: string) => new CliError(`${what}: ${r.reason}`, r.code === 'usage' ? 2 : 1);

/** The archive to upload: `--archive` as it is, or the folder packed into a temporary one (`discard` removes it). */
async function archiveToSend(dir: string | undefined, f: SubmitFlags, info: (text: string) => void): Promise<{ archive: string; discard: () => void }> {
  if (f.archive !== undefined) {
    if (!existsSync(f.archive) || !statSync(f.archive).isFile()) throw new CliError(`--archive ${f.archive}: no such file`, 2);
    return { archive: f.archive, discard: () => {} };
  }
  const folder = dir ?? '.';
  const packed = await packBot(folder);
  if (!packed.ok) throw new CliError(`cannot pack ${folder}: ${packed.reason}`);
  if (!f.json) info(`packed ${folder} (${packed.value.name}): ${packed.value.files} file(s), ${packed.value.bytes} bytes`);
  return packed.value;
}

/** Registers `arena submit`: pack a bot folder (or take an archive), upload it, follow it until placed or failed. */
export function registerSubmit(program: Command, print: (text: string) => void, info: (text: string) => void, setExit: (code: number) => void): void {
  usageExitsWith2(program.command('submit'))
    .description(summaryOf('submit'))
    .argument('[dir]', 'the bot folder, with arena-bot.json at its top (default: the current folder)')
    .option('--archive <file>', 'upload this .tar.gz, .tar or .zip as it is instead of packing a folder')
    .option('--server <url>', 'the arena, e.g. https://arena.example.org (default: the one arena login stored)')
    .option('--token <token>', 'your token (default ARENA_TOKEN, else the one arena login stored for this server)')
    .option('--json', 'print only the final {"submission","bot","version","status","reason"?}')
    .option('--no-wait', 'stop once the server has received it (print its id and status)')
    .option('--poll <t>', 'time between two looks at the status, with its unit: 1s (default 1s)')
    .action(async (dir: string | undefined, f: SubmitFlags) => {
      if (dir !== undefined && f.archive !== undefined) throw new CliError('give a folder or --archive, not both', 2);
      const pollMs = durationFlag('poll', f.poll, { min: 100, max: 60_000 }, 1000) ?? 1000;
      const target = resolveTarget({ server: f.server, token: f.token });
      if (!target.ok) throw refused(target, 'arena submit');
      const t: ApiTarget = target.value;

      const { archive, discard } = await archiveToSend(dir, f, info);
      let received;
      try {
        received = await uploadArchive(t, archive);
      } finally {
        discard();
      }
      if (!received.ok) throw refused(received, `${t.server} refused the submission`);
      const { submission: id, bot, status } = received.value;
      if (!f.wait) {
        if (f.json) return print(JSON.stringify({ submission: id, bot, status }));
        return print(`submission ${id}: ${bot} ${status}`);
      }
      if (!f.json) print(`submission ${id}: ${bot} ${status}`);

      const line = f.json ? undefined : liveLine();
      const t0 = Date.now();
      const final = await withInterrupt(
        () => info(`\nstopped following; submission ${id} goes on on the server (GET ${t.server}/api/submissions/${id})`),
        (signal) =>
          followSubmission(t, id, {
            pollMs,
            signal,
            // On a terminal one line, redrawn at every look (the time runs on); elsewhere a line per new status.
            onLook: (s) => line?.show(`submission ${id} ${s.bot}: ${s.status} · ${duration(Date.now() - t0)}`),
            onStatus: (s) => {
              if (s.status === 'received' || f.json || line?.live) return;
              print(`submission ${id}: ${s.status}${s.reason && s.status !== 'failed' ? ` (${s.reason})` : ''}`);
            },
          }),
      );
      line?.end();
      if (!final.ok) throw refused(final, `submission ${id}`);
      const s = final.value;
      if (f.json) print(finalJson(s));
      if (s.status === 'placed') {
        if (!f.json) print(`submission ${id}: ${s.bot}${s.ladderVersion !== undefined ? ` v${s.ladderVersion}` : ''} placed${s.version ? ` (version ${s.version.slice(0, 12)})` : ''}`);
        return;
      }
      setExit(1);
      if (f.json) return;
      print(`submission ${id}: failed: ${s.reason ?? 'no reason given'}`);
      const log = await fetchBuildLog(t, id);
      if (log.ok && log.value.trim()) print(`build log:\n${log.value}`);
      else if (!log.ok) info(`(the build log could not be read: ${log.reason})`);
    });
}
