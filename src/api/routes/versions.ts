import type { Api } from '../context.js';
import { CONSOLE_PATH, wantsHtml } from './console.js';

/**
 * `GET /` (Heat's versions controller, "List versions" in its API reference): the one API version,
 * 300 Multiple Choices as Heat answers, unauthenticated, its link where the client reached us. A
 * browser (text/html before JSON in its Accept) is sent to the web console instead.
 */
export function registerVersionRoutes(app: Api): void {
  app.get('/', { schema: { tags: ['versions'] } }, async (request, reply) => {
    if (wantsHtml(request.headers.accept)) return reply.redirect(CONSOLE_PATH);
    const href = `${request.protocol}://${request.host}/v1/`;
    return reply
      .status(300)
      .send({ versions: [{ id: 'v1.0', status: 'CURRENT', links: [{ rel: 'self', href }] }] });
  });
}
