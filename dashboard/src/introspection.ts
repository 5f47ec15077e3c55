// The schema for the explorer's docs and completion, read with an introspection query shallow
// enough for the server's depth limit (the standard one nests type references deeper than any
// type of this schema needs). Six levels of `ofType` hold types as wrapped as `[[Float!]!]!`.
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { request } from './api';

const typeRef = (levels: number): string => (levels === 0 ? 'kind name' : `kind name ofType { ${typeRef(levels - 1)} }`);
const TYPE = typeRef(6);
const INPUT_VALUE = `name description type { ${TYPE} } defaultValue isDeprecated deprecationReason`;

const INTROSPECTION = `query ExplorerIntrospection {
  __schema {
    description
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types {
      kind name description specifiedByURL
      fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ${INPUT_VALUE} } type { ${TYPE} } isDeprecated deprecationReason }
      inputFields(includeDeprecated: true) { ${INPUT_VALUE} }
      interfaces { ${TYPE} }
      enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
      possibleTypes { ${TYPE} }
    }
    directives { name description isRepeatable locations args(includeDeprecated: true) { ${INPUT_VALUE} } }
  }
}`;

export async function fetchSchema(key: string): Promise<GraphQLSchema> {
  const data = await request<IntrospectionQuery, Record<string, never>>(key, { toString: () => INTROSPECTION }, {});
  return buildClientSchema(data);
}
