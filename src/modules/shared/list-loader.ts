import DataLoader from 'dataloader';
import type { IdsOfRows } from '../../db/statement-batch';

/**
 * A loader of lists by parent id (an episode's context lists) that can also read ahead: the lists
 * of parents whose ids another read of the same statement will give (an episode page), remembered
 * as if each had been loaded.
 */
export class ListLoader<V> extends DataLoader<string, V[]> {
  constructor(private readonly readLists: (ids: readonly string[]) => Promise<V[][]>) {
    super(readLists);
  }

  /** Reads the lists of the parents `ids` will hold, in the statement of the read that gives them, and keeps them. */
  async readAhead(ids: IdsOfRows): Promise<void> {
    const lists = await this.readLists(ids);
    ids.forEach((id, i) => this.prime(id, lists[i]));
  }
}
