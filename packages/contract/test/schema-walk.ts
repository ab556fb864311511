import { z } from 'zod';

/** A request body (or params) in which exactly one string field holds the given text. */
export interface Variant {
  /** Dotted path of that field; array items as `0`, union options as `<n>:`. */
  path: string;
  value: unknown;
}

function inner(schema: z.ZodType): z.ZodType | null {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return schema.unwrap() as z.ZodType;
  if (schema instanceof z.ZodDefault) return schema.removeDefault() as z.ZodType;
  if (schema instanceof z.ZodPipe) return schema.in as z.ZodType;
  return null;
}

/**
 * A value of the right shape for a schema: strings 'a', numbers 1, the first enum value or
 * literal, the first union option, objects with every key. Not always valid, but well formed.
 */
export function sample(schema: z.ZodType): unknown {
  const wrapped = inner(schema);
  if (wrapped) return sample(wrapped);
  if (schema instanceof z.ZodString) return 'a';
  if (schema instanceof z.ZodNumber) return 1;
  if (schema instanceof z.ZodBoolean) return true;
  if (schema instanceof z.ZodLiteral) return schema.value;
  if (schema instanceof z.ZodEnum) return schema.options[0];
  if (schema instanceof z.ZodObject) {
    return Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, child]) => [key, sample(child)]));
  }
  if (schema instanceof z.ZodArray) return [sample(schema.element as z.ZodType)];
  if (schema instanceof z.ZodUnion) return sample((schema.options as z.ZodType[])[0] as z.ZodType);
  return null;
}

/** Every string field of a schema, each as a sample value with that one field set to `text`. */
export function stringVariants(schema: z.ZodType, text: string): Variant[] {
  const wrapped = inner(schema);
  if (wrapped) return stringVariants(wrapped, text);
  if (schema instanceof z.ZodString) return [{ path: '', value: text }];
  const join = (head: string, rest: string) => (rest ? `${head}.${rest}` : head);
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    return Object.entries(shape).flatMap(([key, child]) =>
      stringVariants(child, text).map((v) => ({ path: join(key, v.path), value: { ...(sample(schema) as object), [key]: v.value } })),
    );
  }
  if (schema instanceof z.ZodArray) return stringVariants(schema.element as z.ZodType, text).map((v) => ({ path: join('0', v.path), value: [v.value] }));
  if (schema instanceof z.ZodUnion) {
    return (schema.options as z.ZodType[]).flatMap((option, i) => stringVariants(option, text).map((v) => ({ path: `${i}:${v.path}`, value: v.value })));
  }
  return [];
}

/** The string fields of a schema, as schemas (for checking each one on its own). */
export function stringFields(schema: z.ZodType, path = ''): Array<{ path: string; schema: z.ZodString }> {
  const wrapped = inner(schema);
  if (wrapped) return stringFields(wrapped, path);
  if (schema instanceof z.ZodString) return [{ path, schema }];
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, child]) => stringFields(child, path ? `${path}.${key}` : key));
  }
  if (schema instanceof z.ZodArray) return stringFields(schema.element as z.ZodType, `${path}.0`);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap((option, i) => stringFields(option, `${path}|${i}`));
  return [];
}
