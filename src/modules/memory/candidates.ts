import { turns } from '../../core/turns';
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
const LIST_BYTES = 2_200;
const ENTRY_BYTES = 210;
const STRING_BYTES = 24;
const MAP_SLOT_BYTES = 44;
const POSTING_BYTES = 6;

/** Heap bytes of a string: one byte per character when all are Latin-1, else two. */
const stringBytes = (s: string) => STRING_BYTES + (/[\u0100-\uffff]/.test(s) ? 2 : 1) * s.length;

/** Rows split into entries and words one at a time, so a large list can be built in slices. */
class Indexer {
  readonly entries: MemoryEntry[] = [];
  readonly slots = new Map<string, number>();
  readonly counts: number[] = [];
  readonly wordSlots: number[][] = [];
  readonly wide: number[] = [];
  bytes = 0;
  private readonly shared = new Map<string, string>();

  add([id, episodeId, role, content, createdAt, tokenEstimate]: CandidateRow): void {
    const i = this.entries.length;
    const slots: number[] = [];
    if (content === null) this.wide.push(i);
    else
      for (const w of words(content)) {
        let k = this.slots.get(w);
        if (k === undefined) {
          this.slots.set(w, (k = this.counts.length));
          this.counts.push(0);
          this.bytes += stringBytes(w) + MAP_SLOT_BYTES;
        }
        this.counts[k] += 1;
        slots.push(k);
      }
    this.wordSlots.push(slots);
    this.bytes += ENTRY_BYTES + stringBytes(id) + (content === null ? 0 : stringBytes(content)) + POSTING_BYTES * slots.length;
    if (!this.shared.has(episodeId)) this.bytes += stringBytes(episodeId);
    this.entries.push(
      Object.assign(new MemoryEntry(), {
        id,
        episodeId: this.intern(episodeId),
        role: this.intern(role),
        content: content ?? undefined,
        createdAt: new Date(createdAt),
        tokenEstimate: Number(tokenEstimate),
      }),
    );
  }

  private intern(s: string): string {
    return this.shared.get(s) ?? (this.shared.set(s, s), s);
  }
}

/** Splitting words runs at most this long before the organization waits for its next turn on the event loop (../../core/turns.ts). */
const SLICE_MS = 8;

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
  private readonly slots: Map<string, number>;
  /** postings of slot k: positions[starts[k] .. starts[k + 1]) */
  private readonly starts: Int32Array;
  private readonly positions: Int32Array;
  /** distinct words per candidate */
  private readonly sizes: Int32Array;

  constructor(rows: CandidateRow[] | Indexer) {
    let ix = rows as Indexer;
    if (Array.isArray(rows)) {
      ix = new Indexer();
      for (const row of rows) ix.add(row);
    }
    const { entries, slots, counts, wordSlots } = ix;
    const n = entries.length;
    this.entries = entries;
    this.slots = slots;
    this.sizes = Int32Array.from(wordSlots, (w) => w.length);
    ({ tokens: this.tokens, least: this.least } = tokensOf(entries));
    this.wide = Int32Array.from(ix.wide);
    this.starts = new Int32Array(counts.length + 1);
    for (let k = 0; k < counts.length; k++) this.starts[k + 1] = this.starts[k] + counts[k];
    this.positions = new Int32Array(this.starts[counts.length]);
    const fill = this.starts.slice(0, counts.length);
    wordSlots.forEach((ks, i) => {
      for (const k of ks) this.positions[fill[k]++] = i;
    });
    this.bytes = ix.bytes + 4 * (this.starts.length + this.wide.length) + 12 * n + LIST_BYTES;
  }

  /**
   * The list of these rows, split in slices of about `SLICE_MS` with the event loop free between
   * them: up to 10,000 texts of 512 bytes of distinct words take seconds to index, which must not
   * hold up other requests. Between two slices `orgId` waits for its turn, after the other
   * organizations' waiting work.
   */
  static async build(rows: CandidateRow[], orgId: string): Promise<CandidateList> {
    const ix = new Indexer();
    let since = performance.now();
    for (let i = 0; i < rows.length; i++) {
      ix.add(rows[i]);
      if ((i & 31) === 31 && performance.now() - since > SLICE_MS) {
        await turns.next(orgId);
        since = performance.now();
      }
    }
    return new CandidateList(ix);
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
