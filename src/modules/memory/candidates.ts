import { MemoryEntry } from './memory.type';
import { overlap, type Prepared, type Relevance, tokensOf, words } from './policies';

/** A candidate segment as the candidates statement returns it (created_at as PostgreSQL's text). */
export type CandidateRow = [id: string, episodeId: string, role: string, content: string, createdAt: string, tokenEstimate: number];

// V8 heap per entry with its Date, per string header, per map slot: fitted on Node 20 to about 530
// bytes per candidate of 60 characters and 12 words, 1.1 KB for 470 characters and 60 words
const ENTRY_BYTES = 340;
const STRING_BYTES = 24;
const MAP_SLOT_BYTES = 40;
const LIST_BYTES = 512;

/** Heap bytes of a string: one byte per character when all are Latin-1, else two. */
const stringBytes = (s: string) => STRING_BYTES + (/[\u0100-\uffff]/.test(s) ? 2 : 1) * s.length;

/**
 * The candidates of one agent (and session) in chronological order, with the words of every
 * segment split once: an inverted index from each distinct word to the candidates holding it, so
 * the Jaccard overlap of a query with all of them costs the query's words' postings, not a split.
 */
export class CandidateList implements Prepared {
  readonly entries: MemoryEntry[];
  readonly tokens: Float64Array;
  readonly least: number;
  /** estimated heap bytes held by this list */
  readonly bytes: number;
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
    let bytes = 0;
    this.entries = rows.map(([id, episodeId, role, content, createdAt, tokenEstimate], i) => {
      const slots: number[] = [];
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
      bytes += ENTRY_BYTES + stringBytes(id) + stringBytes(content) + 4 * (slots.length + 1) + 8;
      if (!shared.has(episodeId)) bytes += stringBytes(episodeId);
      return Object.assign(new MemoryEntry(), {
        id,
        episodeId: intern(episodeId),
        role: intern(role),
        content,
        createdAt: new Date(createdAt),
        tokenEstimate: Number(tokenEstimate),
      });
    });
    ({ tokens: this.tokens, least: this.least } = tokensOf(this.entries));
    this.starts = new Int32Array(counts.length + 1);
    for (let k = 0; k < counts.length; k++) this.starts[k + 1] = this.starts[k] + counts[k];
    this.positions = new Int32Array(this.starts[counts.length]);
    const fill = this.starts.slice(0, counts.length);
    wordSlots.forEach((slots, i) => {
      for (const k of slots) this.positions[fill[k]++] = i;
    });
    this.bytes = bytes + 4 * this.starts.length + LIST_BYTES;
  }

  /** Jaccard overlap of the query with every candidate, in order (the same doubles as `jaccard`). */
  readonly relevance: Relevance = (query) => {
    const q = words(query);
    const n = this.entries.length;
    const inter = new Int32Array(n);
    for (const w of q) {
      const k = this.slots.get(w);
      if (k === undefined) continue;
      for (let p = this.starts[k]; p < this.starts[k + 1]; p++) inter[this.positions[p]] += 1;
    }
    const scores = new Float64Array(n);
    for (let i = 0; i < n; i++) scores[i] = overlap(inter[i], q.size, this.sizes[i]);
    return scores;
  };
}
