import { DashEmbeddingStatusDocument } from '../generated/graphql';
import { useQuery } from '../hooks';
import { Status } from './status';

/** The server's embedding model and how many of the organization's vectors still wait to be embedded again in it (`embeddingStatus`). */
export function EmbeddingStatusPanel({ apiKey }: { apiKey: string }) {
  const q = useQuery(apiKey, DashEmbeddingStatusDocument, {});
  const e = q.data?.embeddingStatus;
  return (
    <div data-testid="embedding-status">
      <h3>Embeddings</h3>
      <Status q={q} />
      {e && (
        <table>
          <tbody>
            <tr data-field="provider">
              <td>provider</td>
              <td>{e.provider}</td>
            </tr>
            <tr data-field="model">
              <td>model</td>
              <td>{e.model ?? '—'}</td>
            </tr>
            <tr data-field="dimension">
              <td>dimension</td>
              <td class="n">{e.dimension ?? '—'}</td>
            </tr>
            <tr data-field="pendingVectors" data-pending={e.pendingVectors}>
              <td>vectors</td>
              <td>{e.pendingVectors > 0 ? `re-embedding: ${e.pendingVectors.toLocaleString('en')} vectors to go` : 'up to date'}</td>
            </tr>
          </tbody>
        </table>
      )}
    </div>
  );
}
