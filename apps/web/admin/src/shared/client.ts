import type { z } from 'zod';
import { operatorCalls, type OperatorCallName, type OperatorCalls } from '@mw/contract/operator/index';
import type { EndpointDef } from '@mw/contract/http';
import { api, ApiError, apiFile } from './api';

type Def<N extends OperatorCallName> = OperatorCalls[N];
type SchemaOf<T> = T extends z.ZodType ? T : never;

/** What a call takes: its path parameters, query, body (as the contract types them), and an Idempotency-Key for money calls. */
export interface CallInput<N extends OperatorCallName> {
  params?: z.input<SchemaOf<NonNullable<Def<N>['params']>>>;
  query?: z.input<SchemaOf<NonNullable<Def<N>['query']>>>;
  body?: z.input<SchemaOf<NonNullable<Def<N>['body']>>>;
  /** Calls that move money carry one key per operator action (a retry sends the same). */
  idempotencyKey?: string;
  /** multipart calls: the form with the file. */
  form?: FormData;
}

/** What a call answers, as its contract definition's response schema parses it. */
export type CallAnswer<N extends OperatorCallName> = z.output<SchemaOf<Def<N>['response']>>;

/** The path of a call with its parameters filled in (`/api/operator/withdrawals/:id` → `/api/operator/withdrawals/w1`). */
export function pathOf(def: Pick<EndpointDef, 'path'>, params: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return def.path.replace(/:([A-Za-z]+)/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined || value === null || value === '') throw new ApiError(0, 'MISSING_PARAM');
    return encodeURIComponent(String(value));
  });
}

function queryOf(query: unknown): Record<string, string | number | boolean | null | undefined> | undefined {
  if (!query || typeof query !== 'object') return undefined;
  const out: Record<string, string | number | boolean | null | undefined> = {};
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value);
  }
  return out;
}

/**
 * THE way the back office calls the server: by the name of the call in the contract's operator
 * definitions (packages/contract/src/operator), typed by its schemas, the answer parsed against its
 * response schema (an answer that does not fit is an error, `UNEXPECTED_ANSWER`, never a screen
 * reading fields that are not there). A lint rule forbids `fetch` and `api(` anywhere else in the
 * back office.
 */
export async function call<N extends OperatorCallName>(name: N, input: CallInput<N> = {}): Promise<CallAnswer<N>> {
  const def: EndpointDef = operatorCalls[name];
  const raw = await api<unknown>(def.method, pathOf(def, input.params), {
    query: queryOf(input.query),
    ...(input.body !== undefined ? { body: input.body } : {}),
    ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
    ...(input.form ? { form: input.form } : {}),
  });
  if (def.produces) return raw as CallAnswer<N>;
  const parsed = def.response.safeParse(raw);
  if (!parsed.success) {
    console.error(`${name}: the answer does not fit the contract`, parsed.error.issues.slice(0, 5));
    throw new ApiError(0, 'UNEXPECTED_ANSWER');
  }
  return parsed.data as CallAnswer<N>;
}

/** A GET call's answer as a file (a report with `format=csv|xlsx`), saved by the browser under the server's file name. */
export async function download<N extends OperatorCallName>(name: N, input: Pick<CallInput<N>, 'params' | 'query'>, fallbackName: string): Promise<void> {
  const def: EndpointDef = operatorCalls[name];
  const { blob, fileName } = await apiFile(pathOf(def, input.params), queryOf(input.query), fallbackName);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
