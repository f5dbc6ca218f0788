/**
 * Text from bots is shown, never obeyed. A give-up reason, a note, a stderr tail or an error reason may hold
 * escape sequences (OSC 0 sets the window title, OSC 52 writes the clipboard, CSI 2K erases a line, CR
 * overwrites one); a terminal runs them if it receives the raw bytes. Everything the CLI writes to stdout or
 * stderr passes through {@link terminalText} (main.ts's print, write and info; the progress bar; the replay
 * screen), so no command has to remember it.
 *
 * Each control character but newline and tab (C0, DEL, C1) becomes `\u00XX`, visible and unambiguous. The
 * same spelling is a JSON escape of the same character, so JSON output (where JSON.stringify leaves DEL and
 * C1 raw) stays valid JSON with the same data; a CSV or table on the terminal shows the escape instead.
 * `export --out FILE` writes the file itself unchanged: a file is not a terminal, and the data is the bot's.
 */

/** C0 controls except tab (\x09) and newline (\x0a), DEL, and the C1 block (U+0080–U+009F). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with every control character except newline and tab spelled as `\u00XX`. */
export function terminalText(text: string): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
