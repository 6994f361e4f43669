import { z } from 'zod';

export type JsonSchema = { [key: string]: unknown };

/**
 * zod's JSON Schema (any target) uses `prefixItems` / `items: [...]` for tuples and a numeric `exclusiveMinimum`
 * for `.positive()`, and bounds integers at ±2^53-1; Gemini endpoints reject the first two, and clients that pass
 * schemas through unchanged then fail the whole request. This rewrites a schema into the portable subset:
 * tuples become `items` + `minItems`/`maxItems`, exclusive bounds become inclusive ones, safe-integer bounds and
 * abuse-sized length caps go.
 * zod still validates every call with the exact rules.
 */
export function portable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(portable);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === '$schema' || key === 'additionalItems') continue;
    if ((key === 'prefixItems' || key === 'items') && Array.isArray(value)) {
      out['items'] = tupleItems(value);
      continue;
    }
    if (key === 'items' && value === false) continue;
    if ((key === 'minimum' || key === 'maximum') && typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER) continue;
    // Length caps against abuse (100,000 characters) that no real call reaches: zod enforces them, the model need not read them.
    if (key === 'maxLength' && typeof value === 'number' && value >= 1_000) continue;
    if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
      if (typeof value !== 'number') continue;
      const integer = (schema as JsonSchema)['type'] === 'integer';
      const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
      out[bound] = integer ? value + (bound === 'minimum' ? 1 : -1) : value;
      continue;
    }
    out[key] = typeof value === 'object' ? portable(value) : value;
  }
  return out;
}

/** One `items` schema for a tuple's members: the member when all are alike, else any of them. */
function tupleItems(members: unknown[]): unknown {
  const converted = members.map(portable);
  const first = JSON.stringify(converted[0]);
  return converted.every((member) => JSON.stringify(member) === first) ? converted[0] : { anyOf: converted };
}

export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return portable(z.toJSONSchema(schema, { io, unrepresentable: 'any' })) as JsonSchema;
}

/**
 * An output schema that says which top-level fields a result has, their JSON types and which are always there, and
 * nothing deeper: clients can still validate and route on it, but it no longer outweighs what the model reads.
 */
export function shallow(schema: JsonSchema): JsonSchema {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const out: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, typeOnly(value)])),
  };
  if (Array.isArray(schema['required']) && schema['required'].length) out['required'] = schema['required'];
  return out;
}

function typeOnly(schema: JsonSchema): JsonSchema {
  if (schema['type'] !== undefined) return { type: schema['type'] };
  if (Array.isArray(schema['enum'])) return { enum: schema['enum'] };
  if (Array.isArray(schema['anyOf'])) {
    const types = [...new Set((schema['anyOf'] as JsonSchema[]).map((member) => member['type']).flat())];
    if (types.every((type) => typeof type === 'string')) return { type: types.length === 1 ? types[0] : types };
  }
  return {};
}
