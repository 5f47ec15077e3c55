import type { EmbeddingSettings } from '../../config';
import type { Logger } from '../../core/logger';
import { type EmbeddingBackend, EmbeddingFailure } from './backend';
import type { EmbeddingMetrics } from './metrics';

/** Longest text sent, in characters (facts are at most 8 KB; longer texts are cut here). */
const OPENAI_MAX_CHARS = 16_000;
/** calls sent at once for one embed call split into several batches */
const PARALLEL_CALLS = 4;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** Retried: rate limits and server errors (and network errors, handled apart). */
const retryable = (status: number) => status === 429 || status >= 500;

/**
 * Any OpenAI-compatible `POST {baseUrl}/embeddings` (OpenAI, Ollama, vLLM, TEI, LM Studio...).
 * Batches of `batchSize` texts; 429, 5xx and network errors are retried with exponential backoff
 * and full jitter while the call's time budget lasts. The answer is checked (one vector of finite
 * numbers per text, in index order, one dimension); the dimension is learnt from the first answer.
 * The API key goes in the Authorization header only: no message or log line carries it.
 */
export class OpenAiBackend implements EmbeddingBackend {
  readonly provider = 'openai' as const;
  readonly modelId: string;
  private dim: number | null = null;

  constructor(
    private readonly settings: EmbeddingSettings,
    private readonly metrics: EmbeddingMetrics,
    private readonly log: Logger,
  ) {
    this.modelId = `openai:${settings.model}${settings.dimensions ? `@${settings.dimensions}` : ''}`;
  }

  dimension(): number | null {
    return this.dim;
  }

  async embedTexts(texts: string[], _purpose: unknown, signal: AbortSignal): Promise<number[][]> {
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += this.settings.batchSize) batches.push(texts.slice(i, i + this.settings.batchSize));
    const out: number[][][] = [];
    let next = 0;
    const lane = async () => {
      while (next < batches.length) {
        const at = next++;
        out[at] = await this.call(batches[at], signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_CALLS, batches.length) }, lane));
    return out.flat();
  }

  private async call(texts: string[], signal: AbortSignal): Promise<number[][]> {
    const body: Record<string, unknown> = {
      model: this.settings.model,
      input: texts.map((t) => t.slice(0, OPENAI_MAX_CHARS)),
      encoding_format: 'float',
    };
    if (this.settings.dimensions !== null) body.dimensions = this.settings.dimensions;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    let lastProblem = 'no answer';
    for (let attempt = 0; !signal.aborted; attempt++) {
      if (attempt > 0) await sleep(Math.random() * Math.min(8000, 100 * 2 ** attempt), signal);
      if (signal.aborted) break;
      this.metrics.batches.inc();
      let res: Response;
      try {
        res = await fetch(`${this.settings.baseUrl}/embeddings`, { method: 'POST', headers, body: JSON.stringify(body), signal });
      } catch (err) {
        if (signal.aborted) break;
        lastProblem = `the endpoint could not be reached (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message})`;
        continue;
      }
      if (!res.ok) {
        const detail = (await res.text().catch(() => '')).slice(0, 200);
        lastProblem = `the endpoint answered HTTP ${res.status}`;
        this.log.warn({ status: res.status, attempt, detail: this.redact(detail) }, 'embedding endpoint refused');
        if (retryable(res.status)) continue;
        throw new EmbeddingFailure('endpoint', lastProblem);
      }
      let answer: unknown;
      try {
        answer = await res.json();
      } catch {
        if (signal.aborted) break;
        throw new EmbeddingFailure('garbage', 'the endpoint answered something other than JSON');
      }
      return this.check(answer, texts.length);
    }
    // reached when the time budget ran out between attempts (the caller reports the timeout)
    throw new EmbeddingFailure('endpoint', lastProblem);
  }

  /** An endpoint may echo what it was sent; the key is cut out of anything logged. */
  private redact(s: string): string {
    return this.settings.apiKey ? s.split(this.settings.apiKey).join('[redacted]') : s;
  }

  private check(answer: unknown, count: number): number[][] {
    const data = (answer as { data?: unknown })?.data;
    if (!Array.isArray(data) || data.length !== count)
      throw new EmbeddingFailure('garbage', `the endpoint answered ${Array.isArray(data) ? data.length : 'no'} vectors for ${count} texts`);
    type Item = { index?: unknown; embedding?: unknown } | null;
    const rows = (data as Item[]).slice().sort((a, b) => Number(a?.index ?? 0) - Number(b?.index ?? 0));
    return rows.map((row, i) => {
      if (row?.index !== undefined && row?.index !== i)
        throw new EmbeddingFailure('garbage', 'the endpoint answered vectors with wrong indexes');
      const v = row?.embedding;
      if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
        throw new EmbeddingFailure('garbage', `vector ${i} of the answer is not a list of finite numbers`);
      if (this.settings.dimensions !== null && v.length !== this.settings.dimensions)
        throw new EmbeddingFailure(
          'garbage',
          `vector ${i} of the answer has ${v.length} numbers, EMBEDDINGS_DIMENSIONS asked for ${this.settings.dimensions}`,
        );
      this.dim ??= v.length;
      if (v.length !== this.dim)
        throw new EmbeddingFailure('garbage', `vector ${i} of the answer has ${v.length} numbers, the model's vectors have ${this.dim}`);
      return v as number[];
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
