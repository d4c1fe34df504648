/* eslint-disable no-control-regex -- terminal escape codes are what these tests look at */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  duration,
  etaMs,
  plainProgressLine,
  type ProgressView,
  RateWindow,
  redraw,
  renderBlock,
  summaryLine,
} from '../../src/cli/progress-view.js';
import { StatusBlock } from '../../src/cli/progress.js';

const COUNTS = { total: 2000, done: 660, inProgress: 12, waiting: 1328, failed: 0 };

const VIEW: ProgressView = {
  status: 'CREATE_IN_PROGRESS',
  elapsedMs: 13_600,
  counts: COUNTS,
  activity: { running: [{ name: 'group.12', since: 1000 }], failed: [] },
  rate: 48,
  nowMs: 6100,
};

const ESCAPES = /\x1b\[[0-9;]*[A-Za-z]/g;

describe('progress view', () => {
  it('the block: a bar that fills the first line, counts by state, rate, ETA, elapsed, running names', () => {
    const lines = renderBlock(VIEW, 60, false);
    assert.deepEqual(lines, [
      `CREATE_IN_PROGRESS [${'#'.repeat(8)}${'.'.repeat(17)}] 660/2000 33%`,
      '12 in progress, 1328 waiting, 0 failed  48/s  ETA 27.9s  1…',
      'running: group.12 5.1s',
    ]);
    for (const line of lines) assert.ok(line.length <= 59, line);
    assert.equal(lines[0]!.length, 59, 'the bar takes the rest of the line');
  });

  it('the bar follows the width; a narrow terminal drops it and cuts every line short of its last column', () => {
    const wide = renderBlock(VIEW, 120, false);
    assert.equal(wide[0]!.length, 119);
    assert.match(wide[1]!, /ETA 27\.9s {2}13\.6s elapsed$/);
    const narrow = renderBlock(VIEW, 30, false);
    assert.deepEqual(narrow[0], 'CREATE_IN_PROGRESS 660/2000 …');
    for (const line of narrow) assert.ok(line.length <= 29, line);
    for (const line of renderBlock(VIEW, 1, false)) assert.ok(line.length <= 1, line);
  });

  it('names failed resources, in red when colour is on, and colour never changes what fits', () => {
    const failing = {
      ...VIEW,
      counts: { ...COUNTS, failed: 2 },
      activity: { running: [], failed: ['group.3', 'group.9'] },
    };
    const plain = renderBlock(failing, 80, false);
    assert.equal(plain[2], 'failed: group.3, group.9');
    const coloured = renderBlock(failing, 80, true);
    assert.ok(coloured[2]!.includes('\x1b[31mfailed: \x1b[0m'));
    assert.match(coloured[1]!, /\x1b\[31m2 failed\x1b\[0m/);
    assert.deepEqual(
      coloured.map((l) => l.replace(ESCAPES, '')),
      plain,
    );
  });

  it('without counts (the remote wait) or a graph, one line: status and elapsed', () => {
    assert.deepEqual(renderBlock({ status: 'UPDATE_IN_PROGRESS', elapsedMs: 2500 }, 80, false), [
      'UPDATE_IN_PROGRESS  2.5s elapsed',
    ]);
    const ended = { status: 'CREATE_FAILED', elapsedMs: 100, counts: { ...COUNTS, total: 0, failed: 1 } };
    assert.deepEqual(renderBlock(ended, 80, false), ['CREATE_FAILED  1 failed  0.1s elapsed']);
  });

  it('no rate yet: no rate and no ETA; a rate of 0: ETA unknown', () => {
    const { rate: _rate, ...noRate } = VIEW;
    assert.doesNotMatch(renderBlock(noRate, 100, false)[1]!, /ETA|\/s/);
    assert.match(renderBlock({ ...VIEW, rate: 0 }, 100, false)[1]!, /0\.0\/s {2}ETA \?/);
  });

  it('rate over the recent window, ETA from what is left', () => {
    const w = new RateWindow();
    w.add(0, 0);
    assert.equal(w.rate(), undefined, 'one sample is no rate');
    w.add(500, 50);
    assert.equal(w.rate(), undefined, 'half a second is no rate yet');
    w.add(2000, 100);
    assert.equal(w.rate(), 50);
    // Ten seconds later at a slower pace: the early burst has left the window.
    for (let t = 3000; t <= 22_000; t += 1000) w.add(t, 100 + (t - 2000) / 100);
    assert.equal(w.rate(), 10);
    // A rollback counts again from 0: a new history.
    w.add(23_000, 5);
    assert.equal(w.rate(), undefined);
    assert.equal(etaMs({ ...COUNTS, total: 100, done: 40 }, 20), 3000);
    assert.equal(etaMs(COUNTS, 0), undefined);
    assert.equal(etaMs(COUNTS, undefined), undefined);
  });

  it('durations, plain progress lines and summaries', () => {
    assert.equal(duration(400), '0.4s');
    assert.equal(duration(185_000), '3m05s');
    assert.equal(duration(3_720_000), '1h02m');
    assert.equal(
      plainProgressLine(VIEW),
      'Progress: 660/2000 done, 12 in progress, 1328 waiting, 0 failed, 48/s, ETA 27.9s (13.6s)',
    );
    const { rate: _rate, ...noRate } = VIEW;
    assert.equal(
      plainProgressLine(noRate),
      'Progress: 660/2000 done, 12 in progress, 1328 waiting, 0 failed (13.6s)',
    );
    assert.equal(
      summaryLine({ status: 'CREATE_COMPLETE', elapsedMs: 41_200, total: 2000 }),
      'CREATE_COMPLETE: 2000 resources in 41.2s (49/s)',
    );
    assert.equal(summaryLine({ status: 'DELETE_COMPLETE', elapsedMs: 300 }), 'DELETE_COMPLETE in 0.3s');
    assert.equal(
      summaryLine({
        status: 'CREATE_FAILED',
        elapsedMs: 5100,
        total: 2000,
        done: 660,
        failed: 1,
        failedNames: ['group.9'],
      }),
      'CREATE_FAILED after 5.1s: 660/2000 done, 1 failed (group.9)',
    );
  });

  it('a redraw goes back to the block’s first line, clears each line and what a taller block left', () => {
    assert.equal(redraw(0, ['a', 'b']), '\ra\x1b[K\nb\x1b[K\x1b[J');
    assert.equal(redraw(1, ['a']), '\ra\x1b[K\x1b[J');
    assert.equal(redraw(3, ['only']), '\r\x1b[2Aonly\x1b[K\x1b[J');
  });
});

describe('status block', () => {
  const view: ProgressView = { status: 'CREATE_IN_PROGRESS', elapsedMs: 1000, counts: COUNTS };

  it('redraws over itself, and starts again below when the terminal got narrower', () => {
    let out = '';
    const stream = { isTTY: true, columns: 80, write: (s: string) => (out += s) };
    const block = new StatusBlock(stream);
    block.draw(view);
    block.draw(view);
    assert.equal(out.split('\x1b[1A').length, 2, 'the second draw went up over the first');
    out = '';
    stream.columns = 40;
    block.draw(view);
    assert.ok(out.startsWith('\n\r') && !out.includes('\x1b[1A'), JSON.stringify(out));
    for (const line of out.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').split(/[\r\n]+/)) {
      assert.ok(line.length < 40, line);
    }
    out = '';
    block.finish('CREATE_COMPLETE in 1.0s');
    assert.equal(out, '\r\x1b[1ACREATE_COMPLETE in 1.0s\x1b[K\x1b[J\n');
  });
});
