/** Why a call failed: the server answered an error, or no usable answer arrived. */
export type ApiErrorKind = 'server' | 'network' | 'timeout' | 'invalidResponse' | 'aborted';

export interface FieldError {
  path: string;
  code: string;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number;
  /** The server's `message` (an error code such as WRONG_CREDENTIAL, or plain text), if any. */
  readonly code: string | null;
  readonly fields: readonly FieldError[];
  /** Numbers the answer carried beside its code, such as `minimum` of DEPOSIT_MINIMUM. */
  readonly detail: Readonly<Record<string, number>>;
  /** The whole answer's body: what it carried beside its code (a `reason`, a time, game codes; contract error-details.ts). */
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(
    kind: ApiErrorKind,
    options: { status?: number; code?: string | null; fields?: FieldError[]; detail?: Record<string, number>; extra?: Record<string, unknown> } = {},
  ) {
    super(options.code ?? kind);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = options.status ?? 0;
    this.code = options.code ?? null;
    this.fields = options.fields ?? [];
    this.detail = options.detail ?? {};
    this.extra = options.extra ?? {};
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
