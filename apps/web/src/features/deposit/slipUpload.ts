import { slipSchema, type Slip } from '@mw/contract/wallet';
import { uploadWithProgress, type UploadProgress } from '../../shared/api/upload';

/** What the upload is doing: sending bytes (0-100 %), then waiting while the server checks the slip. */
export type SlipProgress = UploadProgress;

/**
 * POST /api/wallet/slip (multipart, field `file`) with upload progress and the spec's 300 s
 * timeout. Answers the slip (SUCCESS, or in progress); a refusal is an ApiError with the reason's
 * code (spec section 8).
 */
export function uploadSlip(file: Blob, onProgress: (progress: SlipProgress) => void, signal?: AbortSignal): Promise<Slip> {
  return uploadWithProgress('/api/wallet/slip', file, slipSchema, onProgress, signal);
}
