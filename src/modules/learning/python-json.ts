/**
 * JSON exactly as Python's `json.dumps` writes it (default separators ", " and ": ",
 * ensure_ascii, float repr), for values that Python code hashes or injects into prompts.
 */

/** Python's `repr(float)`: shortest round-trip digits, "612.0" for integral values, e-notation below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  let out: string;
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    out = `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  } else if (exp < 0) {
    out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else if (digits.length <= exp + 1) {
    out = `${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  } else {
    out = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  return negative ? `-${out}` : out;
}

/** Python's `round(x, 2)`: correctly rounded on the binary value, exact ties to even. */
export function pyRound2(x: number): number {
  const up = Number(x.toFixed(2)); // exact arithmetic, ties away from zero
  // an exact tie at the 3rd decimal needs x = k/8 with k odd (the only dyadic halves of 0.01)
  const k = x * 8;
  if (Number.isInteger(k) && k % 2 !== 0) {
    const cents = Math.round(up * 100);
    if (cents % 2 !== 0) return (cents - Math.sign(x)) / 100;
  }
  return up;
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A string as Python's json.dumps writes it with ensure_ascii (UTF-16 units as \uXXXX). */
function pyString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const code = s.charCodeAt(i);
    if (ESCAPES[ch]) out += ESCAPES[ch];
    else if (code < 0x20 || code > 0x7e) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/**
 * `json.dumps(value, sort_keys=sortKeys)`. Numbers that are integers print as ints unless listed
 * in `floats` (a predicate on the path); Python would have parsed them as int too.
 */
export function pyDumps(
  value: unknown,
  opts: { sortKeys?: boolean; asFloat?: (path: string[]) => boolean } = {},
  path: string[] = [],
): string {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') return Number.isInteger(value) && !opts.asFloat?.(path) ? String(value) : pyFloatRepr(value);
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) return '[' + value.map((v, i) => pyDumps(v, opts, [...path, String(i)])).join(', ') + ']';
  const keys = Object.keys(value);
  if (opts.sortKeys) keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return '{' + keys.map((k) => `${pyString(k)}: ${pyDumps((value as Record<string, unknown>)[k], opts, [...path, k])}`).join(', ') + '}';
}
