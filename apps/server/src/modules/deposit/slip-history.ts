import { sql, type Kysely } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { Slip } from '@mw/contract/wallet';
import { AppError, notFound } from '../../lib/errors';
import type { SlipLinks } from './slip-links';
import type { DepositDb } from './tables';

/** A member's slip history and the images behind their private links (the slips are this module's). */
export class SlipHistory {
  constructor(
    private readonly db: Kysely<DepositDb>,
    readonly links: SlipLinks,
  ) {}

  /** The member's slips, newest first; `link` is a fresh private link to the image (see SlipLinks). */
  async slips(memberId: string, page: number, limit: number): Promise<{ total: number; slips: Slip[] }> {
    const [count, rows] = await Promise.all([
      this.db.selectFrom('slips').select((eb) => eb.fn.countAll<string>().as('n')).where('member_id', '=', memberId).executeTakeFirstOrThrow(),
      this.db
        .selectFrom('slips')
        .select(['id', 'created_at', 'amount', 'status', 'note', 'reference', sql<boolean>`image IS NOT NULL`.as('has_image')])
        .where('member_id', '=', memberId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
    ]);
    return {
      total: Number(count.n),
      slips: rows.map((r) => ({
        _id: r.id,
        createdAt: r.created_at.toISOString(),
        amount: toBaht(Number(r.amount)),
        status: r.status,
        note: r.note,
        link: r.has_image ? this.links.url(r.id) : '',
        reference: r.reference,
      })),
    };
  }

  /** A private link to the image of the member's own slip; another member's reference is answered as not found. */
  async slipUrl(memberId: string, reference: string): Promise<{ url: string }> {
    const row = await this.db
      .selectFrom('slips')
      .select(['id', sql<boolean>`image IS NOT NULL`.as('has_image')])
      .where('member_id', '=', memberId)
      .where('reference', '=', reference)
      .executeTakeFirst();
    if (!row) throw notFound('NO_DATA');
    if (!row.has_image) throw new AppError(404, 'UPLOADED_FILE_NOT_EXIST');
    return { url: this.links.url(row.id) };
  }

  /** The image behind a link `url` made (null when the link is forged or expired, or the slip has no image). */
  async image(slipId: string, exp: string, sig: string): Promise<{ bytes: Buffer; type: string } | null> {
    if (!this.links.verify(slipId, exp, sig)) return null;
    const row = await this.db.selectFrom('slips').select(['image', 'image_type']).where('id', '=', slipId).executeTakeFirst();
    if (!row?.image) return null;
    return { bytes: row.image, type: row.image_type ?? 'application/octet-stream' };
  }
}
