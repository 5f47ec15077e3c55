import { badInput } from './errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/** Checks an ID argument before it reaches SQL; ids are lower-cased UUIDs. */
export function parseId(field: string, value: string): string {
  if (!UUID.test(value)) throw badInput(field, `${field} is not a valid id`);
  return value.toLowerCase();
}
