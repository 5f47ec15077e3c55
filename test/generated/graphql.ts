/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A UTC date and time, ISO-8601 (e.g. `2026-11-22T10:00:00.000Z`). */
  DateTime: { input: string; output: string; }
};

/** An API key of the organization. The token itself is never shown again after creation. */
export type ApiKey = {
  __typename?: 'ApiKey';
  /** When the key was created. */
  createdAt: Scalars['DateTime']['output'];
  /** Id of the key (use it to revoke the key). */
  id: Scalars['ID']['output'];
  /** Name given at creation. */
  name: Scalars['String']['output'];
  /** When the key was revoked; null while it is valid. */
  revokedAt?: Maybe<Scalars['DateTime']['output']>;
  /** What the key may do. */
  role: Role;
  /** The first characters of the token, to tell keys apart. */
  tokenPrefix: Scalars['String']['output'];
};

/** A new API key and its token. The token is shown only here, once. */
export type CreatedApiKey = {
  __typename?: 'CreatedApiKey';
  /** The key. */
  apiKey: ApiKey;
  /** The bearer token; store it now, it cannot be shown again. */
  token: Scalars['String']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Creates an API key in the caller organization; its token is returned once (ADMIN only). */
  createApiKey: CreatedApiKey;
  /** Revokes an API key at once; sockets opened with it are closed (ADMIN only). */
  revokeApiKey: ApiKey;
};


export type MutationCreateApiKeyArgs = {
  name: Scalars['String']['input'];
  role: Role;
};


export type MutationRevokeApiKeyArgs = {
  id: Scalars['ID']['input'];
};

export type Query = {
  __typename?: 'Query';
  /** The organization's API keys, oldest first (ADMIN only). */
  apiKeys: Array<ApiKey>;
  /** The caller: API key, role and organization. */
  viewer: Viewer;
};

/** What an API key may do. Every role may query; writes follow the role table of the README. */
export type Role =
  /** Everything, including API keys, forgetting and purging. */
  | 'ADMIN'
  /** Agent runtime writes: episodes, canvas actions, facts, signals, feedback. */
  | 'AGENT'
  /** Every write of agents and operators, and learning analytics. */
  | 'INTEGRATOR'
  /** Feedback, corrections, judgements and mapping decisions. */
  | 'OPERATOR'
  /** Read only. */
  | 'VIEWER';

export type Subscription = {
  __typename?: 'Subscription';
  /** Server time, at once and then every `intervalSeconds`: lets a dashboard tell a quiet feed from a dead connection, and keeps idle proxies from closing the socket. */
  heartbeat: Scalars['DateTime']['output'];
};


export type SubscriptionHeartbeatArgs = {
  intervalSeconds?: Scalars['Int']['input'];
};

/** The caller: the API key used and its organization. */
export type Viewer = {
  __typename?: 'Viewer';
  /** Id of the API key used. */
  apiKeyId: Scalars['ID']['output'];
  /** Name given to the API key when it was created. */
  apiKeyName: Scalars['String']['output'];
  /** Organization of the API key; every read and write is scoped to it. */
  orgId: Scalars['ID']['output'];
  /** Name of the organization. */
  orgName: Scalars['String']['output'];
  /** Role of the API key. */
  role: Role;
};

/** What an API key may do. Every role may query; writes follow the role table of the README. */
export type Role =
  /** Everything, including API keys, forgetting and purging. */
  | 'ADMIN'
  /** Agent runtime writes: episodes, canvas actions, facts, signals, feedback. */
  | 'AGENT'
  /** Every write of agents and operators, and learning analytics. */
  | 'INTEGRATOR'
  /** Feedback, corrections, judgements and mapping decisions. */
  | 'OPERATOR'
  /** Read only. */
  | 'VIEWER';

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { orgId: string, orgName: string, role: Role, apiKeyId: string, apiKeyName: string } };

export type ApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiKeysQuery = { apiKeys: Array<{ id: string, name: string, role: Role, revokedAt: string | null }> };

export type CreateApiKeyMutationVariables = Exact<{
  name: string;
  role: Role;
}>;


export type CreateApiKeyMutation = { createApiKey: { token: string, apiKey: { id: string, name: string, role: Role, tokenPrefix: string, createdAt: string, revokedAt: string | null } } };

export type RevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeApiKeyMutation = { revokeApiKey: { id: string, revokedAt: string | null } };

export type HeartbeatSubscriptionVariables = Exact<{
  intervalSeconds?: number | null | undefined;
}>;


export type HeartbeatSubscription = { heartbeat: string };


export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orgId"}},{"kind":"Field","name":{"kind":"Name","value":"orgName"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"apiKeyId"}},{"kind":"Field","name":{"kind":"Name","value":"apiKeyName"}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const ApiKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ApiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<ApiKeysQuery, ApiKeysQueryVariables>;
export const CreateApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"role"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Role"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"role"},"value":{"kind":"Variable","name":{"kind":"Name","value":"role"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"tokenPrefix"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]}}]} as unknown as DocumentNode<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const HeartbeatDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"Heartbeat"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"intervalSeconds"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heartbeat"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"intervalSeconds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"intervalSeconds"}}}]}]}}]} as unknown as DocumentNode<HeartbeatSubscription, HeartbeatSubscriptionVariables>;