import { turns } from './turns';

/** Lists at least this long are written item by item, each item in one piece. */
const LONG_LIST = 8;
/** Deeper than this, a value is written in one piece. */
const MAX_DEPTH = 32;

interface Frame {
  value: Record<string, unknown> | unknown[];
  /** the keys of an object, null for a list */
  keys: string[] | null;
  next: number;
  wrote: boolean;
  /** each item of a long list is written in one piece */
  whole: boolean;
}

/** A plain object or list that JSON.stringify would write member by member (no `toJSON` of its own). */
function splittable(v: unknown): v is Record<string, unknown> | unknown[] {
  if (typeof v !== 'object' || v === null || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(v)) return true;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A member as JSON.stringify writes it under `key`: undefined when an object leaves it out (a list writes null). */
function member(key: string, v: unknown): string | undefined {
  const toJSON = (v as { toJSON?: unknown } | null | undefined)?.toJSON;
  if ((typeof v === 'object' || typeof v === 'bigint') && v !== null && typeof toJSON === 'function')
    return JSON.stringify((toJSON as (k: string) => unknown).call(v, key));
  return JSON.stringify(v);
}

function open(value: Record<string, unknown> | unknown[], out: string[]): Frame {
  if (Array.isArray(value)) {
    out.push('[');
    const first: unknown = value[0];
    return { value, keys: null, next: 0, wrote: false, whole: value.length >= LONG_LIST || typeof first !== 'object' };
  }
  out.push('{');
  return { value, keys: Object.keys(value), next: 0, wrote: false, whole: false };
}

/**
 * `JSON.stringify(value)`, character for character, written in slices of about `charsPerTurn`
 * (0: in one piece) with a turn of `key` on the event loop between them (`./turns.ts`): a large
 * answer (a page of 100 episodes with their lists is a megabyte) does not hold the event loop
 * while it is written.
 * Plain objects and short lists are written member by member, the items of a long list each in
 * one piece; anything else (a value with `toJSON`, a class instance) in one piece as JSON.stringify
 * writes it.
 */
export async function jsonInTurns(value: unknown, key: string, charsPerTurn: number): Promise<string> {
  if (!charsPerTurn || !splittable(value)) return JSON.stringify(value);
  const out: string[] = [];
  const stack = [open(value, out)];
  let chars = 0;
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    const list = f.keys === null;
    if (f.next === (list ? (f.value as unknown[]).length : f.keys!.length)) {
      out.push(list ? ']' : '}');
      stack.pop();
      continue;
    }
    const k = list ? String(f.next) : f.keys![f.next];
    const child = list ? (f.value as unknown[])[f.next] : (f.value as Record<string, unknown>)[k];
    f.next += 1;
    const name = list ? '' : JSON.stringify(k) + ':';
    if (!f.whole && stack.length < MAX_DEPTH && splittable(child)) {
      out.push((f.wrote ? ',' : '') + name);
      f.wrote = true;
      stack.push(open(child, out));
      continue;
    }
    const text = member(k, child);
    if (text === undefined && !list) continue;
    out.push((f.wrote ? ',' : '') + name + (text ?? 'null'));
    f.wrote = true;
    chars += text?.length ?? 4;
    if (chars > charsPerTurn) {
      chars = 0;
      await turns.next(key);
    }
  }
  return out.join('');
}
