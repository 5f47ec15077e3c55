import { MemoryEntry } from './memory.type';
import { overlap, type Prepared, type Relevance, tokensOf, words } from './policies';

/**
 * A candidate segment as the candidates statement returns it (created_at as PostgreSQL's text); the
 * text is null for a long segment, whose words are stored (`terms`) and compared in PostgreSQL.
 */
export type CandidateRow = [id: string, episodeId: string, role: string, content: string | null, createdAt: string, tokenEstimate: number];

/** The overlap of a query with the long candidates: distinct words and words shared, by position in `wide`. */
export interface WideOverlaps {
  sizes: Int32Array;
  inter: Int32Array;
}

// V8 heap fitted on Node 20 (heapUsed + arrayBuffers after gc, lists held by the cache; docs/design.md):
// an empty list with its typed arrays, cache slot and key; an entry with its Date; a string header; a
// word's map slot; one candidate's place in a word's postings
const LIST_BYTES = 2_500;
const ENTRY_BYTES = 280;
const STRING_BYTES = 24;
const MAP_SLOT_BYTES = 48;
const POSTING_BYTES = 20;

/** Heap bytes of a string: one byte per character when all are Latin-1, else two. */
export const stringBytes = (s: string) => STRING_BYTES + (/[\u0100-\uffff]/.test(s) ? 2 : 1) * s.length;

/**
 * The candidates of one agent (and session) in chronological order. The words of every short text
 * are split once into an inverted index from each distinct word to the candidates holding it, so
 * the Jaccard overlap of a query with all of them costs the query's words' postings, not a split.
 * A long text (`content` null in its row) is not read: its overlap comes from PostgreSQL
 * (`WideOverlaps`) and its text is read when it is selected (`fill`).
 */
export class CandidateList implements Prepared {
  readonly entries: MemoryEntry[];
  readonly tokens: Float64Array;
  readonly least: number;
  /** positions of the candidates whose text was not read, ascending */
  readonly wide: Int32Array;
  /** estimated heap bytes held by this list (grows as long texts are read into it) */
  bytes: number;
  private readonly slots = new Map<string, number>();
  /** postings of slot k: positions[starts[k] .. starts[k + 1]) */
  private readonly starts: Int32Array;
  private readonly positions: Int32Array;
  /** distinct words per candidate */
  private readonly sizes: Int32Array;

  constructor(rows: CandidateRow[]) {
    const n = rows.length;
    const shared = new Map<string, string>();
    const intern = (s: string) => shared.get(s) ?? (shared.set(s, s), s);
    this.sizes = new Int32Array(n);
    const wordSlots: number[][] = [];
    const counts: number[] = [];
    const wide: number[] = [];
    let bytes = 0;
    this.entries = rows.map(([id, episodeId, role, content, createdAt, tokenEstimate], i) => {
      const slots: number[] = [];
      if (content === null) wide.push(i);
      else
        for (const w of words(content)) {
          let k = this.slots.get(w);
          if (k === undefined) {
            this.slots.set(w, (k = counts.length));
            counts.push(0);
            bytes += stringBytes(w) + MAP_SLOT_BYTES;
          }
          counts[k] += 1;
          slots.push(k);
        }
      wordSlots.push(slots);
      this.sizes[i] = slots.length;
      bytes += ENTRY_BYTES + stringBytes(id) + (content === null ? 0 : stringBytes(content)) + POSTING_BYTES * slots.length;
      if (!shared.has(episodeId)) bytes += stringBytes(episodeId);
      return Object.assign(new MemoryEntry(), {
        id,
        episodeId: intern(episodeId),
        role: intern(role),
        content: content ?? undefined,
        createdAt: new Date(createdAt),
        tokenEstimate: Number(tokenEstimate),
      });
    });
    ({ tokens: this.tokens, least: this.least } = tokensOf(this.entries));
    this.wide = Int32Array.from(wide);
    this.starts = new Int32Array(counts.length + 1);
    for (let k = 0; k < counts.length; k++) this.starts[k + 1] = this.starts[k] + counts[k];
    this.positions = new Int32Array(this.starts[counts.length]);
    const fill = this.starts.slice(0, counts.length);
    wordSlots.forEach((slots, i) => {
      for (const k of slots) this.positions[fill[k]++] = i;
    });
    this.bytes = bytes + 4 * (this.starts.length + this.wide.length) + 12 * n + LIST_BYTES;
  }

  /** Jaccard overlap of the query with every candidate, in order (the same doubles as `jaccard`). */
  readonly relevance: Relevance = (query) => this.relevanceWith(query, null);

  /** `relevance`, with the long candidates' overlaps as PostgreSQL counted them (none: they score 0). */
  relevanceWith(query: string, wide: WideOverlaps | null): Float64Array {
    const q = words(query);
    const n = this.entries.length;
    const inter = new Int32Array(n);
    const sizes = wide ? this.sizes.slice() : this.sizes;
    for (const w of q) {
      const k = this.slots.get(w);
      if (k === undefined) continue;
      for (let p = this.starts[k]; p < this.starts[k + 1]; p++) inter[this.positions[p]] += 1;
    }
    if (wide)
      this.wide.forEach((i, j) => {
        inter[i] = wide.inter[j];
        sizes[i] = wide.sizes[j];
      });
    const scores = new Float64Array(n);
    for (let i = 0; i < n; i++) scores[i] = overlap(inter[i], q.size, sizes[i]);
    return scores;
  }

  /** Keeps texts read for selected long candidates; returns the bytes the list grew by. */
  fill(texts: Map<string, string>, entries: MemoryEntry[]): number {
    let grown = 0;
    for (const e of entries) {
      const text = texts.get(e.id);
      if (text === undefined || e.content !== undefined) continue;
      e.content = text;
      grown += stringBytes(text);
    }
    this.bytes += grown;
    return grown;
  }
}
