import { Extensions } from 'type-graphql';

/** What every argument value must satisfy before any resolver sees it (HTTP and WebSocket alike). */
export const INPUT_LIMITS = {
  /** characters of any `String` or `ID` argument or input field without a larger cap of its own */
  stringLength: 10_000,
  /** nesting of objects and arrays in a `JSON` / `JSONObject` value */
  jsonDepth: 32,
  /** largest magnitude of a `Float` (and of a number in JSON): squares and sums of embeddings stay finite */
  floatMagnitude: 1e15,
} as const;

/** A larger character cap for one input field, e.g. `@MaxLength(100_000) content`. */
export const MaxLength = (characters: number) => Extensions({ maxLength: characters });
