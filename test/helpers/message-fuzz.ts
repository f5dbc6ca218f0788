/**
 * fast-check arbitraries for hostile bot messages: valid messages, the same with one field replaced by any
 * JSON, wrapped in deep nesting, widened with thousands of keys, or mutated byte by byte (truncated,
 * flipped, spliced: often invalid JSON or invalid UTF-8). A message is produced as a template, so it can
 * name the request id that is open at the moment it is sent ('$ID') or one the referee cancelled ('$OLD').
 */
import fc from 'fast-check';

/** A message as it will be sent, given the ids of the moment. */
export type MessageTemplate = (ids: { readonly open: string; readonly old: string }) => Buffer;

const ID = '\u0000ID';
const OLD = '\u0000OLD';

const anyId = fc.oneof(
  { weight: 6, arbitrary: fc.constant(ID) },
  { weight: 2, arbitrary: fc.constant(OLD) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '\ud800', 'r1', 'm1-s0-r1', 'x'.repeat(300)) },
);

const moves = fc.oneof(
  fc.stringMatching(/^[UDLRABC0-9 ]{0,40}$/),
  fc.array(fc.tuple(fc.integer({ min: -3, max: 40 }), fc.integer({ min: -3, max: 40 })), { maxLength: 20 }),
  fc.constantFrom(1e400, -0, 2 ** 60, null, [[1]], [[1, 2, 3]], [['1', 2]]),
);

const info = fc.record(
  { optimal: fc.boolean(), computeMs: fc.double(), nodes: fc.double(), note: fc.string({ maxLength: 30 }) },
  { requiredKeys: [] },
);

const capability = fc.record({ kind: fc.constantFrom('sliding', 'hanoi', 'swaps', 'warehouse', 'rubik'), maxSize: fc.integer() }, { requiredKeys: ['kind'] });

/** Well-formed shapes of every bot message type (values may still be out of range). */
export const botMessage = fc.oneof(
  fc.record({
    type: fc.constant('hello'),
    protocol: fc.constantFrom(1, 1, 2, 0),
    name: fc.string({ maxLength: 20 }),
    version: fc.string({ maxLength: 8 }),
    capabilities: fc.array(capability, { maxLength: 4 }),
  }),
  fc.record({ type: fc.constant('moves'), id: anyId, moves, final: fc.boolean(), info }, { requiredKeys: ['type', 'id', 'moves', 'final'] }),
  fc.record({ type: fc.constantFrom('give-up', 'unsupported'), id: anyId, reason: fc.string({ maxLength: 30 }) }, { requiredKeys: ['type', 'id'] }),
);

/** A valid hello, the usual first message. */
export const HELLO = { type: 'hello', protocol: 1, name: 'fuzz', version: '1', capabilities: [{ kind: 'sliding' }] };

// Mostly around the limit of 8; now and then the 100,000 levels that used to overflow the stack.
const depth = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 2, arbitrary: fc.constantFrom(100, 1000) }, { weight: 1, arbitrary: fc.constant(100_000) });

type Mutation =
  | { readonly kind: 'none' }
  | { readonly kind: 'replace'; readonly key: number; readonly value: unknown }
  | { readonly kind: 'deep'; readonly key: number; readonly depth: number; readonly objects: boolean }
  | { readonly kind: 'wide'; readonly keys: number }
  | { readonly kind: 'bytes'; readonly edits: ReadonlyArray<readonly [number, number, number]> }
  | { readonly kind: 'truncate'; readonly at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('replace' as const), key: fc.nat(), value: fc.jsonValue({ maxDepth: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('deep' as const), key: fc.nat(), depth, objects: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wide' as const), keys: fc.constantFrom(10, 65, 500) }) },
  // Each edit: [position as a fraction of 2^16, 0 = overwrite / 1 = insert / 2 = delete, byte].
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('bytes' as const), edits: fc.array(fc.tuple(fc.nat(65535), fc.nat(2), fc.nat(255)), { minLength: 1, maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(65535) }) },
);

function serialize(obj: Record<string, unknown>, m: Mutation): string {
  const entries = Object.entries(obj);
  if (m.kind === 'replace' && entries.length) entries[m.key % entries.length]![1] = m.value;
  const parts = entries.map(([k, v], i) => {
    let text = JSON.stringify(v) ?? 'null';
    if (m.kind === 'deep' && i === m.key % entries.length) {
      text = m.objects ? `${'{"a":'.repeat(m.depth)}${text}${'}'.repeat(m.depth)}` : `${'['.repeat(m.depth)}${text}${']'.repeat(m.depth)}`;
    }
    return `${JSON.stringify(k)}:${text}`;
  });
  if (m.kind === 'wide') for (let i = 0; i < m.keys; i++) parts.push(`"k${i}":${i}`);
  return `{${parts.join(',')}}`;
}

function mutateBytes(b: Buffer, m: Mutation): Buffer {
  if (m.kind === 'truncate') return b.subarray(0, Math.floor((m.at / 65536) * b.length));
  if (m.kind !== 'bytes') return b;
  let out = Buffer.from(b);
  for (const [at, op, byte] of m.edits) {
    const i = Math.floor((at / 65536) * out.length);
    if (op === 0 && out.length) out[i] = byte;
    else if (op === 1) out = Buffer.concat([out.subarray(0, i), Buffer.from([byte]), out.subarray(i)]);
    else out = Buffer.concat([out.subarray(0, i), out.subarray(i + 1)]);
  }
  return out;
}

/** One hostile message: a valid shape, possibly mutated. */
export const hostileMessage: fc.Arbitrary<MessageTemplate> = fc.tuple(botMessage, mutation).map(([obj, m]) => {
  return (ids) => {
    const text = serialize(obj as Record<string, unknown>, m).replaceAll(JSON.stringify(ID).slice(1, -1), ids.open).replaceAll(JSON.stringify(OLD).slice(1, -1), ids.old);
    return mutateBytes(Buffer.from(text, 'utf8'), m);
  };
});

/** A first message: usually a valid hello, sometimes a mutated one or something else entirely. */
export const firstMessage: fc.Arbitrary<MessageTemplate> = fc.oneof(
  { weight: 3, arbitrary: mutation.map((m) => (() => mutateBytes(Buffer.from(serialize(HELLO, m), 'utf8'), m)) as MessageTemplate) },
  { weight: 1, arbitrary: hostileMessage },
);
