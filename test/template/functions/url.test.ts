import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Value } from '../../../src/template/functions/types.js';
import { makeUrl } from '../../../src/template/functions/url.js';
import type { Json } from '../../../src/util/json.js';
import { assertFunctionError, assertUnknown, evaluate, parse, UNKNOWN } from './harness.js';

const FNS = { make_url: makeUrl };
const url = (args: Json, params: Record<string, Value> = {}) => evaluate({ make_url: args }, FNS, { params });
const unknownParam = { p: UNKNOWN };

describe('make_url', () => {
  test('hot_spec example (an IPv6 host from an attribute)', () => {
    const raw: Json = {
      make_url: {
        scheme: 'http',
        host: { get_attr: ['server', 'ip'] },
        port: 8080,
        path: '/hello',
        query: { recipient: 'world' },
        fragment: 'greeting',
      },
    };
    assert.equal(
      evaluate(raw, FNS, { attributes: { server: { ip: '2001:db8::1' } } }),
      'http://[2001:db8::1]:8080/hello?recipient=world#greeting',
    );
  });

  test('basic URLs', () => {
    assert.equal(
      url({ scheme: 'http', host: 'example.com', path: '/foo/bar' }),
      'http://example.com/foo/bar',
    );
    assert.equal(
      url({ scheme: 'http', host: 'example.com', path: 'foo/bar', fragment: 'baz' }),
      'http://example.com/foo/bar#baz',
    );
    assert.equal(url({ scheme: 'ftp', host: 'h', port: '21' }), 'ftp://h:21');
  });

  test('IPv6 hosts are bracketed once', () => {
    assert.equal(url({ scheme: 'http', host: '::1', path: '/foo/bar' }), 'http://[::1]/foo/bar');
    assert.equal(url({ scheme: 'http', host: '[::1]', path: '/foo/bar' }), 'http://[::1]/foo/bar');
  });

  test('ports as strings and integers', () => {
    assert.equal(
      url({ scheme: 'https', host: 'example.com', port: '80', path: '/foo/bar' }),
      'https://example.com:80/foo/bar',
    );
    assert.equal(
      url({ scheme: 'https', host: 'example.com', port: 80, path: '/foo/bar' }),
      'https://example.com:80/foo/bar',
    );
  });

  test('invalid ports', () => {
    assertFunctionError(
      () => parse({ make_url: { host: 'h', port: 100000 } }, FNS),
      /make_url: invalid port 100000; it must be in the range 1-65535/,
    );
    assertFunctionError(() => parse({ make_url: { host: 'h', port: '0' } }, FNS), /invalid port 0/);
    assertFunctionError(
      () => parse({ make_url: { host: 'h', port: '1.1' } }, FNS),
      /invalid port "1.1"; it must be an integer/,
    );
    assertFunctionError(
      () => url({ host: 'h', port: { get_param: 'port' } }, { port: 'http' }),
      /invalid port "http"/,
    );
  });

  test('user info', () => {
    assert.equal(
      url({ scheme: 'http', username: 'wibble', host: 'example.com', path: '/foo/bar' }),
      'http://wibble@example.com/foo/bar',
    );
    assert.equal(
      url({ scheme: 'http', username: 'wibble', password: 'blarg', host: 'example.com', path: '/foo/bar' }),
      'http://wibble:blarg@example.com/foo/bar',
    );
    assert.equal(url({ scheme: 'http', password: 'secret', host: 'h' }), 'http://:secret@h');
  });

  test('escaping of each part', () => {
    assert.equal(
      url({ scheme: 'https', username: 'us er@x', password: 'p:w/d', host: 'fe80::1%eth0', path: '/a b/ç' }),
      'https://us%20er%40x:p%3Aw%2Fd@[fe80::1%25eth0]/a%20b/%C3%A7',
    );
    assert.equal(url({ scheme: 'http', host: 'h', fragment: 'a b/c?d#e' }), 'http://h#a%20b/c%3Fd%23e');
  });

  test('query: form encoding, slashes kept, non-strings as Python writes them', () => {
    assert.equal(
      url({
        scheme: 'http',
        host: 'example.com',
        path: '/foo/?bar',
        query: { 'foo#': 'bar & baz', blarg: '/wib=ble/' },
      }),
      'http://example.com/foo/%3Fbar?foo%23=bar+%26+baz&blarg=/wib%3Dble/',
    );
    assert.equal(
      url({ host: 'h', path: 'rel', query: { a: [1, 'x'], b: null, c: true, d: 1.5 } }),
      '//h/rel?a=%5B1%2C+%27x%27%5D&b=None&c=True&d=1.5',
    );
  });

  test('URLs without a host follow Python 3.12.6+ urlunsplit', () => {
    assert.equal(url({ scheme: 'file', path: 'foo/bar' }), 'file:foo/bar');
    assert.equal(url({ scheme: 'file', path: '/foo/bar' }), 'file:///foo/bar');
    assert.equal(url({ scheme: 'mailto', path: 'me@example.com' }), 'mailto:me%40example.com');
    assert.equal(url({ scheme: 'http' }), 'http://');
    assert.equal(url({ path: '//double' }), '////double');
    assert.equal(url({}), '');
  });

  test('argument errors when parsed', () => {
    assertFunctionError(
      () => parse({ make_url: 'http://example.com/foo/bar' }, FNS),
      /arguments must be a map/,
    );
    assertFunctionError(() => parse({ make_url: { get_param: 'p' } }, FNS), /arguments must be a map/);
    assertFunctionError(
      () => parse({ make_url: { scheme: 'http', host: 'example.com', foo: 'bar' } }, FNS),
      /invalid arguments foo/,
    );
    assertFunctionError(() => parse({ make_url: { host: 80 } }, FNS), /"host" must be a string, got number/);
    assertFunctionError(
      () => parse({ make_url: { query: 'a=b' } }, FNS),
      /"query" must be a map, got string/,
    );
    assertFunctionError(() => parse({ make_url: { fragment: ['x'] } }, FNS), /"fragment" must be a string/);
  });

  test('argument errors when resolved', () => {
    assertFunctionError(() => url({ scheme: 'http:' }), /"scheme" must not contain ":"/);
    assertFunctionError(
      () => url({ host: { get_param: 'h' } }, { h: ['x'] }),
      /"host" must be a string, got list/,
    );
    assertFunctionError(() => url({ query: { get_param: 'q' } }, { q: 'a=b' }), /"query" must be a map/);
  });

  test('unknowns', () => {
    assertUnknown(url({ scheme: 'http', host: { get_param: 'p' } }, unknownParam));
    assertUnknown(url({ scheme: 'http', host: 'h', port: { get_param: 'p' } }, unknownParam));
    assertUnknown(url({ scheme: 'http', host: 'h', query: { a: { get_param: 'p' } } }, unknownParam));
    assertFunctionError(
      () => url({ scheme: 'http:', host: { get_param: 'p' } }, unknownParam),
      /must not contain/,
    );
    assertFunctionError(() => url({ port: 0, host: { get_param: 'p' } }, unknownParam), /invalid port/);
  });
});
