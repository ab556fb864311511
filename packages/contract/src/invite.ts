import { z } from 'zod';
import { endpoint, isoDateSchema, pageRequestSchema } from './http';
import { bahtSchema } from './money';
import { walletBalanceSchema } from './wallet';

/** Invite-friend calls of spec section 7. */

/** Carousel item (spec section 3); also used by the refund and bonus banners. */
export const carouselItemSchema = z.object({
  image: z.string().describe('image URL'),
  html: z.string().describe('HTML'),
});
export type CarouselItem = z.infer<typeof carouselItemSchema>;

export const inviteRowSchema = z.object({
  from: z.object({ name: z.string() }).describe('the invited friend'),
  amount: bahtSchema,
  createdAt: isoDateSchema,
});
export type InviteRow = z.infer<typeof inviteRowSchema>;

export const inviteListResponseSchema = z.object({ total: z.number().int(), invites: z.array(inviteRowSchema) });

/** GET /api/invite/bonus: the invite bonus credited to the wallet. */
export const inviteBonusResponseSchema = z.object({
  message: z.literal('INVITE_BONUS_SUCCESS'),
  amount: bahtSchema.describe('the bonus credited'),
  wallet: walletBalanceSchema.describe('main wallet balance after the call'),
});

export const inviteEndpoints = {
  inviteList: endpoint({
    method: 'POST', path: '/api/invite', auth: true, domain: 'invite',
    body: pageRequestSchema, response: inviteListResponseSchema,
  }),
  inviteBonus: endpoint({
    method: 'GET', path: '/api/invite/bonus', auth: true, domain: 'invite', movesMoney: true,
    response: inviteBonusResponseSchema, description: 'Receives the invite bonus into the wallet.',
  }),
  inviteBanners: endpoint({ duringBreak: 'refused',
    method: 'GET', path: '/api/invite/banners', auth: true, domain: 'invite', response: z.array(carouselItemSchema),
  }),
};
