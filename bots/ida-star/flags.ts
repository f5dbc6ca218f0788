/** Command-line options of the ida-star bot. */
export interface BotFlags {
  /** `--weight w` (w ≥ 1): f = g + w·h on every board; absent = the default per board size. */
  readonly weight?: number;
  /** `--no-pdb`: Manhattan + linear conflict on 4×4 too. */
  readonly noPdb: boolean;
}

/** Parses the bot's argv (after the script path); returns an error text for anything unknown or malformed. */
export function parseFlags(argv: readonly string[]): BotFlags | string {
  let weight: number | undefined;
  let noPdb = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-pdb') noPdb = true;
    else if (a === '--weight' || a.startsWith('--weight=')) {
      const text = a === '--weight' ? argv[++i] : a.slice('--weight='.length);
      const w = Number(text);
      if (text === undefined || !Number.isFinite(w) || w < 1) return `--weight needs a number ≥ 1, got ${text}`;
      weight = w;
    } else return `unknown flag ${a} (expected --weight w, --no-pdb)`;
  }
  return { weight, noPdb };
}
