import { UPLOAD_TIMEOUT_MS } from '@mw/contract/constants';
import { slipSchema, type Slip } from '@mw/contract/wallet';
import { ApiError } from '../../shared/api/ApiError';
import { apiHeaders, refusedAnswer } from '../../shared/api/client';

/** What the upload is doing: sending bytes (0-100 %), then waiting while the server checks the slip. */
export type SlipProgress = { phase: 'sending'; percent: number } | { phase: 'checking' };

/**
 * POST /api/wallet/slip (multipart, field `file`) with upload progress — fetch reports none, so
 * this uses XMLHttpRequest — and the spec's 300 s timeout. Answers the slip (SUCCESS, or in
 * progress); a refusal is an ApiError with the reason's code (spec section 8).
 */
export function uploadSlip(file: Blob, onProgress: (progress: SlipProgress) => void, signal?: AbortSignal): Promise<Slip> {
  return new Promise<Slip>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/wallet/slip');
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    for (const [name, value] of Object.entries(apiHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ phase: 'sending', percent: Math.min(100, Math.round((event.loaded / event.total) * 100)) });
    };
    xhr.upload.onload = () => onProgress({ phase: 'checking' });
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : null;
      } catch {
        reject(new ApiError('network', { status: xhr.status }));
        return;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(refusedAnswer(xhr.status, body));
        return;
      }
      const parsed = slipSchema.safeParse(body);
      if (parsed.success) resolve(parsed.data);
      else reject(new ApiError('invalidResponse', { status: xhr.status }));
    };
    xhr.onerror = () => reject(new ApiError('network'));
    xhr.ontimeout = () => reject(new ApiError('timeout'));
    xhr.onabort = () => reject(new ApiError('aborted'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file instanceof File ? file.name : 'slip');
    onProgress({ phase: 'sending', percent: 0 });
    xhr.send(form);
  });
}
