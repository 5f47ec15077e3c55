import { Field, ID, ObjectType } from 'type-graphql';
import type { ApiKey as ApiKeyEntity } from './api-key.entity';
import { type Role, RoleEnum } from './role';
import type { Viewer as ViewerData } from './orgs.service';

@ObjectType({ simpleResolvers: true, description: 'The caller: the API key used and its organization.' })
export class Viewer {
  @Field(() => ID, { description: 'Organization of the API key; every read and write is scoped to it.' })
  orgId!: string;

  @Field({ description: 'Name of the organization.' })
  orgName!: string;

  @Field(() => RoleEnum, { description: 'Role of the API key.' })
  role!: Role;

  @Field(() => ID, { description: 'Id of the API key used.' })
  apiKeyId!: string;

  @Field({ description: 'Name given to the API key when it was created.' })
  apiKeyName!: string;

  static from(v: ViewerData): Viewer {
    return Object.assign(new Viewer(), v);
  }
}

@ObjectType({ simpleResolvers: true, description: 'An API key of the organization. The token itself is never shown again after creation.' })
export class ApiKey {
  @Field(() => ID, { description: 'Id of the key (use it to revoke the key).' })
  id!: string;

  @Field({ description: 'Name given at creation.' })
  name!: string;

  @Field(() => RoleEnum, { description: 'What the key may do.' })
  role!: Role;

  @Field({ description: 'The first characters of the token, to tell keys apart.' })
  tokenPrefix!: string;

  @Field({ description: 'When the key was created.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the key was revoked; null while it is valid.' })
  revokedAt!: Date | null;

  static from(k: ApiKeyEntity): ApiKey {
    return Object.assign(new ApiKey(), {
      id: k.id,
      name: k.name,
      role: k.role,
      tokenPrefix: k.tokenPrefix,
      createdAt: k.createdAt,
      revokedAt: k.revokedAt,
    });
  }
}

@ObjectType({ simpleResolvers: true, description: 'A new API key and its token. The token is shown only here, once.' })
export class CreatedApiKey {
  @Field(() => ApiKey, { description: 'The key.' })
  apiKey!: ApiKey;

  @Field({ description: 'The bearer token; store it now, it cannot be shown again.' })
  token!: string;
}
