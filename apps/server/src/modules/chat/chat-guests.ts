import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SIGNED = /^([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\.([A-Za-z0-9_-]{22})$/;

/** Whether a value is a bare v4 UUID (the guest ids clients made before the server issued them). */
export function isLegacyGuestId(value: string): boolean {
  return UUID_V4.test(value.toLowerCase());
}

/**
 * Guest sessions the server issued: `<uuid>.<sig>` (59 characters, within the contract's 64),
 * `sig` the first 128 bits of HMAC-SHA256("chat-guest.<uuid>") in base64url, with a secret of its
 * own (CHAT_GUEST_SECRET, else generated into DATA_DIR/secrets). The uuid is the guest's
 * conversation id and room; only the server can make a value that verifies, so a client cannot
 * pick guest ids to spread its messages over many flood-limit keys, or name another guest's
 * conversation by its uuid (which support and the socket show).
 */
export class GuestSessions {
  constructor(private readonly secret: string) {}

  private sign(id: string): string {
    return createHmac('sha256', this.secret).update(`chat-guest.${id}`).digest('base64url').slice(0, 22);
  }

  /** A new guest session, or the signed form of a given uuid (a legacy guest id the server adopted). */
  issue(id: string = randomUUID()): string {
    return `${id.toLowerCase()}.${this.sign(id.toLowerCase())}`;
  }

  /** The guest's uuid when the value is one the server issued, else null. */
  verify(value: string): string | null {
    const match = SIGNED.exec(value);
    if (!match?.[1] || !match[2]) return null;
    const expected = Buffer.from(this.sign(match[1]));
    const given = Buffer.from(match[2]);
    return expected.length === given.length && timingSafeEqual(expected, given) ? match[1] : null;
  }
}
