import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, errorBody, type ServiceName } from '../../src/sandbox/errors.js';
import { extractErrorMessage, isNotFound, LookupError, OpenStackError } from '../../src/openstack/errors.js';

const extract = (body: unknown, status = 404) =>
  extractErrorMessage(status, 'Not Found', typeof body === 'string' ? body : JSON.stringify(body));

describe('error messages from every API format', () => {
  it('reads Nova and Cinder faults', () => {
    assert.equal(
      extract({ itemNotFound: { code: 404, message: 'Flavor m1.huge could not be found.' } }),
      'Flavor m1.huge could not be found.',
    );
    assert.equal(
      extract({ badRequest: { code: 400, message: 'Invalid volume size.' } }, 400),
      'Invalid volume size.',
    );
    assert.equal(
      extract({ overLimit: { code: 413, message: 'Quota exceeded', retryAfter: '0' } }, 413),
      'Quota exceeded',
    );
  });

  it('reads Neutron, Keystone, Placement and Ironic bodies', () => {
    assert.equal(
      extract({
        NeutronError: { type: 'NetworkNotFound', message: 'Network n1 could not be found.', detail: '' },
      }),
      'Network n1 could not be found.',
    );
    assert.equal(extract({ NeutronError: 'old-style string' }), 'old-style string');
    assert.equal(
      extract(
        {
          error: {
            code: 401,
            title: 'Unauthorized',
            message: 'The request you have made requires authentication.',
          },
        },
        401,
      ),
      'The request you have made requires authentication.',
    );
    assert.equal(
      extract(
        { errors: [{ status: 409, title: 'Conflict', detail: 'resource provider generation conflict' }] },
        409,
      ),
      'resource provider generation conflict',
    );
    assert.equal(
      extract({ error_message: JSON.stringify({ faultstring: 'Node n1 is locked', debuginfo: null }) }, 409),
      'Node n1 is locked',
    );
  });

  it('reads Glance text and HTML pages', () => {
    assert.equal(extract('404 Not Found\n\nNo image found with ID abc\n\n   '), 'No image found with ID abc');
    assert.equal(
      extract(
        '<html>\n <head>\n  <title>409 Conflict</title>\n </head>\n <body>\n  <h1>409 Conflict</h1>\n  Image status transition from active to queued is not allowed<br /><br />\n\n\n\n </body>\n</html>',
        409,
      ),
      'Image status transition from active to queued is not allowed',
    );
  });

  it('falls back to the status for an empty or unknown body', () => {
    assert.equal(extractErrorMessage(502, 'Bad Gateway', ''), 'HTTP 502 Bad Gateway');
    assert.equal(extractErrorMessage(500, '', '   '), 'HTTP 500');
    assert.equal(extract({ something: 'else', other: 1 }, 500), '{"something":"else","other":1}');
  });

  it('reads what the sandbox sends for each of its services', () => {
    const services: ServiceName[] = ['identity', 'compute', 'network', 'volume', 'image'];
    for (const service of services) {
      const body = errorBody(
        service,
        new ApiError(404, `Thing t1 could not be found (${service}).`, 'ThingNotFound'),
      );
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      assert.equal(
        extractErrorMessage(404, 'Not Found', text),
        `Thing t1 could not be found (${service}).`,
        service,
      );
    }
  });

  it('isNotFound: a 404, or a name matching nothing', () => {
    const error = (status: number | undefined) =>
      new OpenStackError({
        status,
        service: 'network',
        method: 'DELETE',
        url: 'http://n/v2.0/ports/p',
        detail: 'x',
        attempts: 1,
      });
    assert.equal(isNotFound(error(404)), true);
    assert.equal(isNotFound(error(409)), false);
    assert.equal(isNotFound(error(undefined)), false);
    assert.equal(isNotFound(new LookupError('none', 'image', 'cirros', 'no image')), true);
    assert.equal(isNotFound(new LookupError('many', 'image', 'cirros', 'several')), false);
    assert.equal(isNotFound(new Error('404')), false);
  });
});
