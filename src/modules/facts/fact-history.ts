import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql as raw } from 'kysely';
import { Field, ID, ObjectType } from 'type-graphql';
import { templateRows } from '../../db/typed-sql';

@ObjectType({ simpleResolvers: true, description: 'A past version of a fact: what it said from `from` until `to`.' })
export class FactVersion {
  @Field({ description: 'The text then.' })
  text!: string;

  @Field(() => String, { nullable: true, description: 'The value then (mappings).' })
  value!: string | null;

  @Field({ description: 'The review state then.' })
  status!: string;

  @Field(() => String, { nullable: true, description: 'The kind then.' })
  kind!: string | null;

  @Field({ description: 'The memory bank then.' })
  bankId!: string;

  @Field({ description: 'Whether it had an embedding then (the vector itself is not returned).' })
  hasEmbedding!: boolean;

  @Field(() => Date, { nullable: true, description: 'Its validFrom then.' })
  validFrom!: Date | null;

  @Field(() => Date, { nullable: true, description: 'Its validTo then.' })
  validTo!: Date | null;

  @Field(() => ID, { nullable: true, description: 'The fact superseding it then.' })
  supersededById!: string | null;

  @Field({ description: 'When this version began.' })
  from!: Date;

  @Field({ description: 'When the write that replaced it happened.' })
  to!: Date;

  @Field(() => ID, { nullable: true, description: 'The API key that wrote this version (null: the server, or a write that does not say).' })
  writtenByKeyId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The API key whose write replaced it.' })
  changedByKeyId!: string | null;

  @Field(() => [String], {
    description: 'What that write changed: text, value, status, kind, embedding, bankId, validFrom, validTo or supersededById.',
  })
  changed!: string[];
}

interface VersionRow {
  fact_id: string;
  text: string;
  value: string | null;
  status: string;
  kind: string | null;
  bank_id: string;
  has_embedding: boolean;
  valid_from: Date | null;
  valid_to: Date | null;
  superseded_by: string | null;
  version_from: Date;
  created_at: Date;
  written_by: string | null;
  changed_by: string | null;
  changed: string[];
  rn: number;
}

const FIELD = { supersededBy: 'supersededById' } as Record<string, string>;

/** The newest `limit` past versions of each fact, newest first (one statement per batch). */
export const historyByFact = (em: EntityManager, orgId: string, { limit }: { limit: number }) =>
  new DataLoader<string, FactVersion[]>(async (ids) => {
    const found = await templateRows<VersionRow>(
      em,
      raw`SELECT * FROM (
            SELECT v.fact_id, v.text, v.value, v.status, v.kind, v.bank_id, v.embedding IS NOT NULL AS has_embedding, v.valid_from,
                   v.valid_to, v.superseded_by, v.version_from, v.created_at, v.written_by, v.changed_by, v.changed,
                   row_number() OVER (PARTITION BY v.fact_id ORDER BY v.created_at DESC, v.id DESC) AS rn
              FROM fact_versions v WHERE v.org_id = ${orgId}::uuid AND v.fact_id = any(${[...ids]}::uuid[])) x
          WHERE rn <= ${limit} ORDER BY fact_id, rn`,
    );
    const byFact = new Map<string, FactVersion[]>(ids.map((id) => [id, []]));
    for (const r of found)
      byFact.get(r.fact_id)!.push(
        Object.assign(new FactVersion(), {
          text: r.text,
          value: r.value,
          status: r.status,
          kind: r.kind,
          bankId: r.bank_id,
          hasEmbedding: r.has_embedding,
          validFrom: r.valid_from && new Date(r.valid_from),
          validTo: r.valid_to && new Date(r.valid_to),
          supersededById: r.superseded_by,
          from: new Date(r.version_from),
          to: new Date(r.created_at),
          writtenByKeyId: r.written_by,
          changedByKeyId: r.changed_by,
          changed: r.changed.map((c) => FIELD[c] ?? c),
        }),
      );
    return ids.map((id) => byFact.get(id)!);
  });
