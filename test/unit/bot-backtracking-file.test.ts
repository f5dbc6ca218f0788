import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSolutionFile, formatTraceNode, parseBoardFile } from '../../bots/backtracking/board-file.ts';
import { runStandalone } from '../../bots/backtracking/standalone.ts';

const dir = mkdtempSync(join(tmpdir(), 'bt-file-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('backtracking parseBoardFile', () => {
  it('reads the seed example with X for the blank', () => {
    const r = parseBoardFile('4 1 3\n7 X 6\n5 2 8\n');
    expect(r).toEqual({ ok: true, value: { rows: 3, cols: 3, tiles: [4, 1, 3, 7, 0, 6, 5, 2, 8] } });
  });

  it('tolerates CRLF, extra spaces and a lower-case x', () => {
    const r = parseBoardFile('  4  1 3\r\n7 x 6\r\n5 2 8');
    expect(r.ok && r.value.tiles).toEqual([4, 1, 3, 7, 0, 6, 5, 2, 8]);
  });

  it.each([
    ['', /empty/],
    ['4 1 3\n7 X 6\n5 2\n', /line 3 has 2 entries/],
    ['4 1 3\n\n7 X 6\n5 2 8\n', /line 2 is empty/],
    ['4 1 3\n7 X 6\n5 2 9\n', /"9" is not a tile/],
    ['4 1 3\n7 X 6\n5 2 a\n', /"a" is not a tile/],
    ['4 1 3\n7 X 6\n5 2 4\n', /tile 4 appears twice \(first on line 1\)/],
    ['4 1 X\n7 X 6\n5 2 8\n', /blank \(X\) appears twice/],
    ['1 2 3 4\n5 6 7 8\n9 10 11 X\n', /2 to 9 cells/],
  ])('rejects %j with a one-line reason', (text, reason) => {
    const r = parseBoardFile(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toMatch(reason);
      expect(r.reason).not.toContain('\n');
    }
  });
});

describe('backtracking output formats', () => {
  it('writes the count then one Spanish move per line', () => {
    expect(formatSolutionFile('DLUR')).toBe('4\nAbajo\nIzquierda\nArriba\nDerecha\n');
    expect(formatSolutionFile('')).toBe('0\n');
  });

  it('prints a node like the seed printCurrent()', () => {
    expect(formatTraceNode(0, 12, [2, 5, 1, 7, 6, 3, 0, 8, 4], 3)).toBe(
      'Movimientos realizados: 0 Distancia manhattan: 12\n2 |5 |1\n7 |6 |3\nX |8 |4\n',
    );
  });
});

describe('backtracking standalone mode', () => {
  it('solves the seed example into the output file (8 moves, ending with Derecha)', () => {
    const errors: string[] = [];
    const out = join(dir, 'out1.txt');
    expect(runStandalone(file('in1.txt', '4 1 3\n7 X 6\n5 2 8\n'), out, {}, (l) => errors.push(l), () => {})).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('8\nAbajo\nIzquierda\nArriba\nArriba\nDerecha\nAbajo\nAbajo\nDerecha\n');
    expect(errors).toEqual([]);
  });

  it('exits 1 for a malformed or missing file and 2 for an unsolvable board, one line each', () => {
    const errors: string[] = [];
    const err = (l: string): void => void errors.push(l);
    expect(runStandalone(file('bad.txt', '4 1 3\n7 X 6\n5 2\n'), undefined, {}, err, () => {})).toBe(1);
    expect(runStandalone(join(dir, 'missing.txt'), undefined, {}, err, () => {})).toBe(1);
    expect(runStandalone(file('odd.txt', '4 1 3\n7 X 6\n5 8 2\n'), undefined, {}, err, () => {})).toBe(2);
    expect(errors.length).toBe(3);
    for (const e of errors) expect(e).not.toContain('\n');
  });

  it('runs as a program: --in/--out, and --trace prints nodes to stderr', () => {
    const main = resolve('bots/backtracking/main.ts');
    const out = join(dir, 'out2.txt');
    const ok = spawnSync(process.execPath, ['--import', 'tsx', main, '--in', file('in2.txt', '1 2 3\n4 5 6\nX 7 8\n'), '--out', out, '--trace'], {
      encoding: 'utf8',
    });
    expect(ok.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('2\nDerecha\nDerecha\n');
    expect(ok.stderr).toContain('Movimientos realizados: 0 Distancia manhattan: 4\n1 |2 |3\n4 |5 |6\nX |7 |8\n');
    expect(ok.stdout).toBe('');
    const bad = spawnSync(process.execPath, ['--import', 'tsx', main, '--in', file('in3.txt', '4 1 3\n7 Y 6\n5 2 8\n')], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/"Y" is not a tile/);
  });
});
