import sharp from 'sharp';
import type { Kysely } from 'kysely';
import { CHAT_IMAGE_MAX_MB, CHAT_VIDEO_MAX_MB } from '@mw/contract/constants';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { SignedLinks } from '../../platform/signed-links';
import type { ChatObjectStore } from './chat-store';
import type { ChatDb } from './tables';

export type UploadKind = 'image' | 'video';

interface Sniffed {
  mime: string;
  ext: string;
}

/** Accepted extensions per kind (spec section 5: mp4, quicktime, png, jpeg, jpg, gif). */
const EXTENSIONS: Record<UploadKind, readonly string[]> = { image: ['png', 'jpg', 'jpeg', 'gif'], video: ['mp4', 'mov', 'qt'] };
export const MAX_BYTES: Record<UploadKind, number> = { image: CHAT_IMAGE_MAX_MB * 1024 * 1024, video: CHAT_VIDEO_MAX_MB * 1024 * 1024 };

/**
 * The file's real type from its first bytes, whatever its name says: PNG, JPEG, GIF; MP4 and
 * QuickTime (an ISO base media `ftyp` box, brand `qt  ` for QuickTime). Anything else is null.
 */
export function sniff(bytes: Buffer): Sniffed | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { mime: 'image/png', ext: 'png' };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mime: 'image/jpeg', ext: 'jpg' };
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return { mime: 'image/gif', ext: 'gif' };
  if (bytes.length >= 12 && bytes.subarray(4, 8).toString('latin1') === 'ftyp') {
    const brand = bytes.subarray(8, 12).toString('latin1');
    return brand === 'qt  ' ? { mime: 'video/quicktime', ext: 'mov' } : { mime: 'video/mp4', ext: 'mp4' };
  }
  return null;
}

/** An upload no message named within this long is deleted by the cleaner (which runs every CHAT_FILE_CLEAN_INTERVAL_MINUTES). */
const UNATTACHED_MS = 3_600_000;

/** Whether an image decodes whole (every pixel; at most 40 megapixels), whatever its first bytes say. */
async function decodes(bytes: Buffer): Promise<boolean> {
  try {
    await sharp(bytes, { failOn: 'error', limitInputPixels: 40_000_000, animated: false }).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * Chat attachments. An upload is checked (a name with an accepted extension, the content sniffed
 * as an image or a video of the call's kind, at most 10 / 20 MB); its bytes go to the object store
 * (files under DATA_DIR, see chat-store.ts) and its row to `chat_files`, and it is answered as its
 * path `/api/chat/files/<id>`. It belongs to no conversation until a media message names it; then
 * to that conversation only. The file is served only through a signed, expiring link (`?exp&sig`),
 * which the uploader gets in the answer and the conversation's parties get in history and on the
 * socket. Rows from before the store (chat/001 kept the bytes in the row) are still served from
 * the row. `clean` removes uploads older than the retention period, and uploads no message named
 * within a day; their messages stay, and their links answer 404 NO_DATA.
 */
export class ChatFiles {
  constructor(
    private readonly db: Kysely<ChatDb>,
    private readonly links: SignedLinks,
    private readonly store: ChatObjectStore,
  ) {}

  static pathOf(id: string): string {
    return `/api/chat/files/${id}`;
  }

  /** The upload id a stored path names, or null. */
  static idOf(path: string): string | null {
    const match = /^\/api\/chat\/files\/([0-9a-f]{24})(?:\?.*)?$/.exec(path);
    return match?.[1] ?? null;
  }

  signed(path: string): string {
    const id = ChatFiles.idOf(path);
    return id ? this.links.url(id) : path;
  }

  async save(kind: UploadKind, name: string, bytes: Buffer, uploader: string): Promise<{ path: string }> {
    const ext = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase();
    if (!ext || !EXTENSIONS[kind].includes(ext)) throw new AppError(400, 'CHAT_FILE_UNSUPPORTED');
    if (bytes.length === 0) throw new AppError(400, 'CHAT_NO_FILE');
    if (bytes.length > MAX_BYTES[kind]) throw new AppError(413, 'CHAT_FILE_TOO_LARGE', { maxMb: kind === 'image' ? CHAT_IMAGE_MAX_MB : CHAT_VIDEO_MAX_MB });
    const type = sniff(bytes);
    if (!type || !type.mime.startsWith(`${kind}/`)) throw new AppError(400, 'CHAT_FILE_UNSUPPORTED');
    // An image is decoded, not only sniffed: a PNG signature followed by junk is no image.
    if (kind === 'image' && !(await decodes(bytes))) throw new AppError(400, 'CHAT_FILE_UNSUPPORTED');
    const id = newId();
    await this.store.put(id, bytes);
    try {
      await this.db.insertInto('chat_files').values({ id, thread_id: null, kind, mime: type.mime, ext: type.ext, size: bytes.length, name: displayName(name), bytes: null, uploader }).execute();
    } catch (error) {
      await this.store.delete(id).catch(() => undefined);
      throw error;
    }
    return { path: ChatFiles.pathOf(id) };
  }

  /**
   * Binds an upload to a conversation when a media message names it (once: an upload already in
   * another conversation is refused). Answers the upload's kind.
   */
  async attach(path: string, threadId: string, uploader: string | null = null): Promise<UploadKind> {
    const id = ChatFiles.idOf(path);
    if (!id) throw new AppError(400, 'CHAT_FILE_UNKNOWN');
    let update = this.db
      .updateTable('chat_files')
      .set({ thread_id: threadId })
      .where('id', '=', id);
    // A customer names only what they uploaded themselves (support's replies name support's uploads).
    if (uploader !== null) update = update.where('uploader', '=', uploader);
    const row = await update
      .where((eb) => eb.or([eb('thread_id', 'is', null), eb('thread_id', '=', threadId)]))
      .returning('kind')
      .executeTakeFirst();
    if (!row) throw new AppError(400, 'CHAT_FILE_UNKNOWN');
    return row.kind;
  }

  /** The stored file behind a signed link, or null when the link is wrong or old. */
  async read(id: string, exp: string, sig: string): Promise<{ bytes: Buffer; mime: string } | null> {
    if (!/^[0-9a-f]{24}$/.test(id) || !this.links.verify(id, exp, sig)) return null;
    const row = await this.db.selectFrom('chat_files').select(['mime', 'bytes']).where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    if (row.bytes) return { bytes: Buffer.from(row.bytes), mime: row.mime };
    const bytes = await this.store.get(id);
    return bytes ? { bytes, mime: row.mime } : null;
  }

  /**
   * Deletes uploads created before `now - retentionDays` (rows and their bytes, old in-row ones
   * included) and uploads no message named within an hour (UNATTACHED_MS), in batches; then files the store holds
   * from before the retention period without a row (a crash between the two writes). Answers how
   * many uploads went.
   */
  async clean(retentionDays: number, now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
    const unused = new Date(now.getTime() - UNATTACHED_MS);
    let removed = 0;
    for (;;) {
      const batch = await this.db
        .deleteFrom('chat_files')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('chat_files')
            .select('id')
            .where((w) => w.or([w('created_at', '<', cutoff), w.and([w('thread_id', 'is', null), w('created_at', '<', unused)])]))
            .limit(500),
        )
        .returning('id')
        .execute();
      for (const { id } of batch) await this.store.delete(id);
      removed += batch.length;
      if (batch.length < 500) break;
    }
    await this.store.sweep(cutoff);
    return removed;
  }
}

/**
 * An upload's file name as kept (it is shown to support): control characters and lone UTF-16
 * surrogates removed (the client chose the name; a NUL cannot go into a text column), at most 255
 * characters.
 */
export function displayName(name: string): string {
  return (
    name
      // eslint-disable-next-line no-control-regex -- dropping control characters is the point
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
      .slice(0, 255)
  );
}
