import { z } from 'zod';
import type { Schema } from './openapi-kit.js';

/**
 * The contract of an interface, written once as zod schemas: the handlers parse requests with them and the
 * serializers return their types, and the OpenAPI 3.1 document is generated from them with zod's own JSON Schema
 * output (`z.toJSONSchema`, draft 2020-12, the dialect of OpenAPI 3.1). Prose, examples and error tables are
 * metadata beside the schemas (`.meta({description})`, the operation tables of `openapi.document.ts`), never a
 * second copy of a shape. docs/operations.md ("The API contract") says how to add a route.
 *
 * A `Contract` names the schemas that become `components/schemas`: a named schema used inside another becomes a
 * `$ref`; anything else is inlined. Request bodies are generated as zod reads them (`io: 'input'`: before trimming
 * and defaults), responses as the serializers write them (`io: 'output'`). A rule zod cannot express (a
 * `.refine`, a transform) does not reach the document: write it as a `.regex`, a length or a bound instead.
 */

export interface Component {
  schema: z.ZodType;
  /** The component's description in the document (else the schema's own `.meta({description})`). */
  description?: string;
}
export type Components = Record<string, z.ZodType | Component>;

const asComponent = (c: z.ZodType | Component): Component => (c instanceof z.ZodType ? { schema: c } : c);
const COMPONENT_PREFIX = '#/components/schemas/';

/** zod's JSON Schema without the keys that belong to a standalone document (`$schema`, `$id`). */
function bare(node: unknown): Schema {
  const { $schema: _schema, $id: _id, ...rest } = node as Schema;
  return rest;
}

/** The JSON Schema of a schema as zod reads it (a request body's part, a parameter), inlined, without a dialect. */
export function inputJsonSchema(schema: z.ZodType): Schema {
  return bare(z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'throw' }));
}

export class Contract {
  private readonly names = new Map<z.ZodType, string>();

  /** `requests` are generated as zod reads them (input), `responses` as the server writes them (output). */
  constructor(private readonly components: { requests: Components; responses: Components }) {
    for (const set of [components.requests, components.responses])
      for (const [name, c] of Object.entries(set)) {
        const schema = asComponent(c).schema;
        const known = this.names.get(schema);
        if (known && known !== name) throw new Error(`one schema named twice: ${known} and ${name}`);
        this.names.set(schema, name);
      }
  }

  /** `components/schemas` of the document. */
  schemas(): Record<string, Schema> {
    const input = this.generate(this.components.requests, 'input');
    const output = this.generate(this.components.responses, 'output');
    for (const name of Object.keys(input))
      if (name in output && JSON.stringify(input[name]) !== JSON.stringify(output[name]))
        throw new Error(`${name} reads differently as a request and as a response: give each its own name`);
    return { ...input, ...output };
  }

  /** The `$ref` of a named schema; a schema without a name is an error (name it in the contract). */
  ref(schema: z.ZodType): Schema {
    const name = this.names.get(schema);
    if (!name) throw new Error('this schema is not a component of the contract');
    return { $ref: `${COMPONENT_PREFIX}${name}` };
  }

  /** The JSON Schema of a parameter (query, path or header), as zod reads it. */
  parameterSchema(schema: z.ZodType): Schema {
    return inputJsonSchema(schema);
  }

  private generate(set: Components, io: 'input' | 'output'): Record<string, Schema> {
    const registry = z.registry<{ id: string; description?: string }>();
    // A component refers to the others of its own direction only (a request body to a response is not a thing).
    for (const [id, c] of Object.entries(set)) registry.add(asComponent(c).schema, { id });
    const all = z.toJSONSchema(registry, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'throw',
      uri: (id) => `${COMPONENT_PREFIX}${id}`,
    }).schemas;
    return Object.fromEntries(
      Object.entries(set).map(([name, c]) => {
        const description = asComponent(c).description;
        return [name, { ...bare(all[name]), ...(description === undefined ? {} : { description }) }];
      }),
    );
  }
}

/**
 * A success answer typed by its schema of the contract (`ctx.body = answer(schema, …)`): a serializer whose result
 * drifts from the schema the document is generated from fails the typecheck. Nothing is parsed at run time.
 */
export const answer = <S extends z.ZodType>(_schema: S, body: z.input<S>): z.input<S> => body;
