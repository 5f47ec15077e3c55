import DataLoader from 'dataloader';
import type { LoaderFactory } from '../../graphql/loaders';
import { loadFactsInOrder } from './fact.rows';
import type { Fact } from './fact.type';

/** Facts by id for one request and organization (one statement per batch); null for ids of other orgs. */
export const factsById: LoaderFactory<DataLoader<string, Fact | null>> = (em, orgId) =>
  new DataLoader(async (ids) => {
    const found = new Map((await loadFactsInOrder(em, orgId, [...ids])).map((f) => [f.id, f]));
    return ids.map((id) => found.get(id) ?? null);
  });
