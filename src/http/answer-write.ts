import type { ServerResponse } from 'node:http';
import { currentRequestScope } from '../core/request-scope';
import { turns } from '../core/turns';

/**
 * Ends a response with `text` (its length in the header): a short one in one write, a long one in
 * pieces of about `charsPerTurn` characters (SLICE_CHARS; 0: in one write) with a turn of the
 * request's organization on the event loop between them (../core/turns.ts). Encoding a megabyte
 * answer into the socket's buffer at once holds the loop for milliseconds; the bytes sent are the
 * same.
 */
export async function endWithText(res: ServerResponse, text: string, charsPerTurn: number): Promise<void> {
  res.setHeader('content-length', Buffer.byteLength(text));
  if (!charsPerTurn || text.length <= charsPerTurn) {
    res.end(text);
    return;
  }
  const key = currentRequestScope()?.orgId ?? '';
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + charsPerTurn);
    // a piece never ends between the two halves of a surrogate pair
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    if (res.destroyed) return; // the client went away: nothing more to write
    if (end === text.length) res.end(text.slice(at));
    else res.write(text.slice(at, end));
    at = end;
    if (at < text.length) await turns.next(key);
  }
}
