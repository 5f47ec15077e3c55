import { CLIENT_MODEL_ID, type Embedder, type EmbeddingPurpose } from './embedder';

/** A vector to store, with the model that made it. */
export interface StoredVector {
  embedding: number[] | null;
  /** 'client', the server's model id, or null when there is no vector */
  model: string | null;
}

/**
 * The vectors a write stores: the client's where it sent one (it wins), else the server's for the
 * text (one embed call for all of them, made before any transaction opens), else none (provider
 * 'none', or no text). Throws EMBEDDINGS_UNAVAILABLE when the embedder fails: the write must then
 * store nothing.
 */
export async function vectorsFor(
  embedder: Embedder,
  orgId: string,
  items: { text: string | null; given: number[] | null | undefined }[],
  purpose: EmbeddingPurpose,
): Promise<StoredVector[]> {
  const out: StoredVector[] = items.map((it) =>
    it.given ? { embedding: it.given, model: CLIENT_MODEL_ID } : { embedding: null, model: null },
  );
  if (!embedder.enabled) return out;
  const todo = items.flatMap((it, i) => (!it.given && it.text !== null && it.text.trim() !== '' ? [i] : []));
  if (todo.length === 0) return out;
  const vectors = await embedder.embed(
    orgId,
    todo.map((i) => items[i].text!),
    purpose,
  );
  todo.forEach((i, k) => (out[i] = { embedding: vectors[k], model: embedder.modelId }));
  return out;
}
