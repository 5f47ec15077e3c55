import { createHash } from 'node:crypto';

/**
 * The words memoryContext compares, as the reference does (Python's `set(s.lower().split())`),
 * lower-cased and split the JavaScript way.
 */
export const words = (s: string) => new Set(s.toLowerCase().split(/\s+/).filter(Boolean));

/**
 * Segments whose text is at most this many UTF-8 bytes are read whole by memoryContext; longer ones
 * carry their distinct words (`episode_segments.terms`), so choosing among them never reads their
 * text. The SQL function `segment_terms` uses the same bound.
 */
const INLINE_TEXT_BYTES = 512;

/** PostgreSQL's longest lexeme. */
const MAX_LEXEME_BYTES = 2047;

/**
 * A word as a lexeme: itself, or a space and its SHA-256 when it is longer than a lexeme may be
 * (no word holds a space, so a digest never equals a word).
 */
const termOf = (w: string) => (Buffer.byteLength(w) > MAX_LEXEME_BYTES ? ' ' + createHash('sha256').update(w).digest('hex') : w);

/** The lexemes stored for a segment's text: its distinct words, or null for a text read whole. */
export const segmentTerms = (content: string): string[] | null =>
  Buffer.byteLength(content) <= INLINE_TEXT_BYTES ? null : Array.from(words(content), termOf);

// unpaired surrogates (PostgreSQL stores none) and NUL (PostgreSQL's text holds none)
const UNSTORABLE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\0/;

/** The lexemes of a query's words that a stored segment can hold (the others match no segment). */
export const queryTerms = (query: Set<string>): string[] => [...query].filter((w) => !UNSTORABLE.test(w)).map(termOf);
