import { Type } from '@mikro-orm/core';

/** `double precision[]` <-> number[] (embeddings). The pg driver already parses float8[] to numbers. */
export class FloatArrayType extends Type<number[] | null, string | null> {
  // a PostgreSQL array literal: the query builder would expand a JS array into a list of values
  override convertToDatabaseValue(value: number[] | null): string | null {
    return value === null || value === undefined ? null : `{${value.map((v) => String(Number(v))).join(',')}}`;
  }

  override convertToJSValue(value: number[] | string | null): number[] | null {
    if (value === null || value === undefined) return null;
    if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
    return value.map(Number);
  }

  override getColumnType(): string {
    return 'double precision[]';
  }
}
