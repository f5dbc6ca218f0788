import { describe, expect, it } from 'vitest';
import { positionalSql, sharedSql } from '../../src/store/sql-text.ts';
import { SQLITE } from '../../src/store/sql-rows.ts';

describe('positionalSql', () => {
  it('sql-text - spells $1, $2, … as ? when each is named once, in order (the results INSERT binds by position)', () => {
    expect(positionalSql('INSERT INTO t (a, b, c) VALUES ($1, $2, $3)')).toBe('INSERT INTO t (a, b, c) VALUES (?, ?, ?)');
    const insert = positionalSql(sharedSql(SQLITE).insertResult);
    expect(insert).not.toMatch(/\$\d/);
    expect(insert.split('?').length - 1).toBe(20);
  });

  it('sql-text - throws for a parameter out of order or named twice (a programmer error, not a bound value gone astray)', () => {
    expect(() => positionalSql('SELECT $2, $1')).toThrow(/\$2 where \$1 was due/);
    expect(() => positionalSql('UPDATE t SET a = $1 WHERE b = $1')).toThrow(/\$1 where \$2 was due/);
  });
});
