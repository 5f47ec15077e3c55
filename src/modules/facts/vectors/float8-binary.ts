/** A query context's embedding inside JSON: PostgreSQL's binary array format in base64 (alias `c`). */
export const BINARY_CONTEXT_EMBEDDING = "encode(array_send(c.query_embedding), 'base64')";

/**
 * A one-dimensional float8 array in PostgreSQL's binary format (`array_send`): a 20-byte header
 * (dimensions, null flag, element type, length, lower bound), then per element its byte length
 * (8, or -1 for null) and the big-endian double.
 */
export function decodeFloat8Array(bin: Buffer): Float64Array {
  if (bin.readInt32BE(0) === 0) return new Float64Array(0);
  const n = bin.readInt32BE(12);
  const out = new Float64Array(n);
  for (let k = 0, at = 20; k < n; k++, at += 12) out[k] = bin.readInt32BE(at) === 8 ? bin.readDoubleBE(at + 4) : Number.NaN;
  return out;
}

/** `BINARY_CONTEXT_EMBEDDING` decoded (null stays null). */
export function fromBase64(b64: string | null): Float64Array | null {
  return b64 === null ? null : decodeFloat8Array(Buffer.from(b64, 'base64'));
}
