import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ART_FILES, gameArt } from '../../providers/games/art';
import { CATALOGUE } from '../../providers/games/catalogue';

/** The hand-drawn art of each game of the catalogue (providers/games/art/<CODE>.<file>): logos and backgrounds of the member's game list. */
export function registerGameArt(untyped: FastifyInstance): void {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  app.get('/media/games/:code/:file', { schema: { params: z.object({ code: z.string().max(16), file: z.enum(ART_FILES) }) } }, async (request, reply) => {
    const { code, file } = request.params;
    const game = CATALOGUE.find((g) => g.code === code);
    if (!game) return reply.status(404).send({ message: 'NOT_FOUND' });
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(gameArt(game.code, file));
  });
}
