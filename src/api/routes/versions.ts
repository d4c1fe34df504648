import type { Api } from '../context.js';

/**
 * `GET /` (Heat's versions controller, "List versions" in its API reference): the one API version,
 * 300 Multiple Choices as Heat answers, unauthenticated, its link where the client reached us.
 */
export function registerVersionRoutes(app: Api): void {
  app.get('/', { schema: { tags: ['versions'] } }, async (request, reply) => {
    const href = `${request.protocol}://${request.host}/v1/`;
    return reply
      .status(300)
      .send({ versions: [{ id: 'v1.0', status: 'CURRENT', links: [{ rel: 'self', href }] }] });
  });
}
