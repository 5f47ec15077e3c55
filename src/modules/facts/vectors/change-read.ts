import { sql as raw } from 'kysely';
import { boundText } from '../../../core/sql';
import { ChangeCursor, type ChangeTopic } from '../../../db/change-feed';

/** What a read of the change log returns: the horizon and the changes at or above it. */
type ChangeRead = Parameters<typeof ChangeCursor.start>[0];

/**
 * The change log of an organization's topic read from a cursor (or, without one, the read that
 * starts a cursor) as a one-row table `l` of a built statement, its values bound.
 */
export function changeRead(orgId: string, topic: ChangeTopic, cursor: ChangeCursor | null) {
  const columns = cursor
    ? boundText(ChangeCursor.columns, cursor.bindings(orgId, topic))
    : boundText(ChangeCursor.startColumns, ChangeCursor.startBindings(orgId, topic));
  return raw<ChangeRead>`(SELECT ${columns})`.as('l');
}
