/**
 * HTML built by one tagged template that escapes every interpolated value unless it is already markup made
 * by this tag. Bot names, notes, errors and commands come from contestants: nothing reaches a page unescaped.
 */

/** Markup produced by {@link h}; only this module makes it. */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function part(v: unknown): string {
  if (v === undefined || v === null || v === false) return '';
  if (v instanceof Markup) return v.text;
  if (Array.isArray(v)) return v.map(part).join('');
  return escapeHtml(String(v));
}

/** `h\`<td>${name}</td>\`` escapes `name`; nested h`…` values and arrays of them are kept as markup. */
export function h(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1];
  return new Markup(out);
}

/**
 * JSON for a `<script type="application/json">` block: `<` is written as \u003c so no value can close the
 * block, whatever a bot named itself.
 */
export function jsonBlock(id: string, value: unknown): Markup {
  const text = JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return new Markup(`<script type="application/json" id="${escapeHtml(id)}">${text}</script>`);
}
