import { type AliasedExpression, type AliasNode, type Expression, sql as raw } from 'kysely';

/**
 * A large column that a brief read returns as NULL of its SQL type, under its own name, so the
 * brief selection keeps the columns of the full one in the same order. It selects as
 * `NULL::<type> AS <name>` (the name written in code, never from a request); its type is `null`.
 */
class BriefColumn<A extends string> implements AliasedExpression<null, A> {
  readonly expression: Expression<null>;

  constructor(
    readonly alias: A,
    private readonly type: 'text' | 'jsonb',
  ) {
    this.expression = raw<null>`NULL::${raw.raw(type)}`;
  }

  /** The selection as SQL written in code; the builder places any selection node as it is. */
  toOperationNode(): AliasNode {
    return raw`${this.expression} AS ${raw.raw(this.alias)}`.toOperationNode() as unknown as AliasNode;
  }
}

/** `name` read as NULL of the SQL type `type`. */
export const briefColumn = <A extends string>(name: A, type: 'text' | 'jsonb') => new BriefColumn(name, type);
