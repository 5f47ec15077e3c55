import { describe, expect, it } from 'vitest';
import { DateTimeScalar } from '../src/graphql/scalars';

describe('the DateTime scalar', () => {
  it('serialises dates, timestamp strings and epoch milliseconds to ISO-8601 UTC strings', () => {
    const at = '2026-11-22T10:00:00.123Z';
    expect(DateTimeScalar.serialize(new Date(at))).toBe(at);
    // timestamps read through JSON (a statement batch) carry microseconds and an offset
    expect(DateTimeScalar.serialize('2026-11-22T11:00:00.123456+01:00')).toBe(at);
    expect(DateTimeScalar.serialize(Date.parse(at))).toBe(at);
  });

  it('refuses values that are not timestamps', () => {
    expect(() => DateTimeScalar.serialize(new Date('nope'))).toThrow(/invalid Date/);
    expect(() => DateTimeScalar.serialize('yesterday')).toThrow(/invalid date-time/);
    expect(() => DateTimeScalar.serialize({})).toThrow(/cannot be serialized/);
  });
});
