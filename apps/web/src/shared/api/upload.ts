import { UPLOAD_TIMEOUT_MS } from '@mw/contract/constants';
import { ApiError } from './ApiError';
import { apiHeaders, refusedAnswer, type ResponseParser } from './client';

/** What an upload is doing: sending bytes (0-100 %), then waiting for the server's answer. */
export type UploadProgress = { phase: 'sending'; percent: number } | { phase: 'checking' };

/**
 * A multipart upload (one file in the field `file`, after the text `fields` if any) with progress — fetch reports none, so this
 * uses XMLHttpRequest — and the spec's 300 s upload timeout. A refusal is an ApiError with the
 * server's code.
 */
export function uploadWithProgress<T>(path: string, file: Blob, parser: ResponseParser<T>, onProgress: (progress: UploadProgress) => void, signal?: AbortSignal, fields: Record<string, string> = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
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
      const parsed = parser.safeParse(body);
      if (parsed.success) resolve(parsed.data);
      else reject(new ApiError('invalidResponse', { status: xhr.status }));
    };
    xhr.onerror = () => reject(new ApiError('network'));
    xhr.ontimeout = () => reject(new ApiError('timeout'));
    xhr.onabort = () => reject(new ApiError('aborted'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    // Text fields first: the server reads them before the file.
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', file, file instanceof File ? file.name : 'upload');
    onProgress({ phase: 'sending', percent: 0 });
    xhr.send(form);
  });
}
