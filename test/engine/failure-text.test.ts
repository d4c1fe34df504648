import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  abortedText,
  heatPath,
  nestedFailureText,
  resourceFailureText,
  stackFailureText,
} from '../../src/engine/core/failure-text.js';
import { OpenStackError } from '../../src/openstack/index.js';
import { ResourceFailure, ResourceInError } from '../../src/resources/contract.js';
import { failure } from '../../src/resources/openstack/common.js';
import { reached } from '../../src/resources/openstack/polling.js';
import { TemplateError } from '../../src/template/errors.js';

// Heat's wording of failures (heat/common/exception.py ResourceFailure and HeatExceptionWithPath,
// heat/engine/check_resource.py): what clients and scripts match on.

function cloudError(status: number | undefined, detail: string): OpenStackError {
  return new OpenStackError({
    status,
    service: 'network',
    method: 'POST',
    url: 'http://cloud/v2.0/ports',
    detail,
    attempts: 1,
  });
}

describe("Heat's failure texts", () => {
  it('names a plugin failure by the class Heat raises, then the resource path, then the message', () => {
    const test = new ResourceFailure('Test Resource failed x', { heatClass: 'ValueError' });
    assert.equal(resourceFailureText(test, 'x'), 'ValueError: resources.x: Test Resource failed x');
    assert.equal(resourceFailureText(new ResourceFailure('no way'), 'x'), 'Error: resources.x: no way');
    assert.equal(
      resourceFailureText(new ResourceInError('Went to status ERROR due to "boom"'), 'server'),
      'ResourceInError: resources.server: Went to status ERROR due to "boom"',
    );
    assert.equal(resourceFailureText(new Error('plain'), 'x'), 'Exception: resources.x: plain');
    assert.equal(resourceFailureText(new TypeError('bad'), 'x'), 'TypeError: resources.x: bad');
    assert.equal(resourceFailureText('made by the engine', 'x'), 'resources.x: made by the engine');
    const template = new TemplateError('property', 'Property error: value: not a string');
    assert.match(resourceFailureText(template, 'x'), /^StackValidationFailed: resources\.x: Property error/);
  });

  it("names a cloud error by the Python client's exception for its status", () => {
    const cases: [number | undefined, string, typeof ResourceFailure][] = [
      [400, 'BadRequest', ResourceFailure],
      [403, 'Forbidden', ResourceFailure],
      [404, 'NotFound', ResourceFailure],
      [409, 'Conflict', ResourceInError],
      [413, 'OverLimit', ResourceFailure],
      [500, 'InternalServerError', ResourceInError],
      [503, 'ServiceUnavailable', ResourceInError],
      [418, 'ClientException', ResourceFailure],
      [undefined, 'ConnectFailure', ResourceInError],
    ];
    for (const [status, name, kind] of cases) {
      const made = failure('creating the port', cloudError(status, 'Invalid input for operation'));
      assert.ok(made instanceof kind, `${status}: ${made.name}`);
      const answered = status === undefined ? 'failed' : `answered ${status}`;
      assert.equal(
        resourceFailureText(made, 'port'),
        `${name}: resources.port: Invalid input for operation ` +
          `(creating the port; network: POST http://cloud/v2.0/ports ${answered})`,
      );
    }
    // Thrown as it is (not through `failure`), the same class.
    assert.match(resourceFailureText(cloudError(404, 'gone'), 'port'), /^NotFound: resources\.port: gone \(/);
  });

  it("words statuses as Heat's ResourceInError and ResourceUnknownStatus", () => {
    const wait = { what: 'volume v1', ready: ['available'], pending: ['creating'], errors: ['error'] };
    assert.throws(
      () => reached('error', wait, 'disk on fire'),
      (err: ResourceFailure) =>
        err instanceof ResourceInError &&
        resourceFailureText(err, 'vol') ===
          'ResourceInError: resources.vol: Went to status error due to "disk on fire" (volume v1)',
    );
    assert.throws(
      () => reached('weird', wait),
      (err: ResourceFailure) =>
        resourceFailureText(err, 'vol') ===
        'ResourceUnknownStatus: resources.vol: Resource failed - Unknown status weird due to "Unknown" ' +
          '(volume v1, expected available)',
    );
  });

  it("quotes a nested stack's failure with the parent resource's path in front", () => {
    const child = stackFailureText('CREATE', 'ValueError: resources.x: Test Resource failed x');
    assert.equal(child, 'Resource CREATE failed: ValueError: resources.x: Test Resource failed x');
    const member = nestedFailureText(child, 'CREATE', '0');
    // A group member's name is a number: Heat writes it as an index.
    assert.equal(member, 'ValueError: resources[0].resources.x: Test Resource failed x');
    const group = nestedFailureText(stackFailureText('CREATE', member), 'CREATE', 'group');
    assert.equal(group, 'ValueError: resources.group.resources[0].resources.x: Test Resource failed x');
    // A message holding colons (a type name) stays whole.
    const typed = stackFailureText(
      'DELETE',
      'ResourceInError: resources.b: OS::Heat::TestResource b is busy',
    );
    assert.equal(
      nestedFailureText(typed, 'DELETE', 'inner'),
      'ResourceInError: resources.inner.resources.b: OS::Heat::TestResource b is busy',
    );
    // Any other reason of the child (its timeout) is the message.
    assert.equal(nestedFailureText('Timed out', 'CREATE', 'inner'), 'resources.inner: Timed out');
  });

  it("writes paths and aborts as Heat's", () => {
    assert.equal(
      heatPath(['resources', 'group', 'resources', '0', 'resources', 'x']),
      'resources.group.resources[0].resources.x',
    );
    assert.equal(heatPath([]), '');
    assert.equal(abortedText('CREATE', 'Timed out'), 'CREATE aborted (Timed out)');
  });
});
