import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fails, y } from './yaql-helpers.js';

// Expected values are yaql's own (its docstrings, and the Python yaql library that Heat uses run on
// the same expressions). Dates come out as Heat's API writes them: datetimes in ISO 8601
// (Python's isoformat()), timespans as Python's str() of a timedelta.

describe('yaql datetime()', () => {
  it('builds a UTC datetime from parts, a timestamp or a string', () => {
    assert.equal(y('datetime(2015, 9, 29, 10, 5, 3, 12)'), '2015-09-29T10:05:03.000012+00:00');
    assert.deepEqual(y('let(datetime(2015, 9, 29)) -> [$.year, $.month, $.day]'), [2015, 9, 29]);
    assert.deepEqual(y('let(datetime(1256953732)) -> [$.year, $.month, $.day]'), [2009, 10, 31]);
    assert.equal(y('datetime(1256953732)'), '2009-10-31T01:48:52+00:00');
    assert.equal(y('datetime(1256953732.5).microsecond'), 500000);
    assert.deepEqual(y('let(datetime("29.8?2015", "%d.%m?%Y")) -> [$.year, $.month, $.day]'), [2015, 8, 29]);
    assert.equal(y('datetime("2015-01-02")'), '2015-01-02T00:00:00+00:00');
    assert.equal(y('datetime("2015-01-02T03:04:05Z")'), '2015-01-02T03:04:05+00:00');
    assert.equal(y('datetime("2015-01-02 03:04:05+02:00")'), '2015-01-02T03:04:05+02:00');
    assert.equal(y('datetime("2015-01-02T03:04:05.5+0100")'), '2015-01-02T03:04:05.500000+01:00');
    assert.equal(y('datetime("Jan 5 2015 10:00")'), '2015-01-05T10:00:00+00:00');
    assert.equal(y('datetime("July 19, 2016")'), '2016-07-19T00:00:00+00:00');
    assert.equal(y('datetime("Tue, 19 Jul 2016 08:49:00 GMT")'), '2016-07-19T08:49:00+00:00');
    assert.equal(y('datetime("19 Jul 2016 08:49 +0200")'), '2016-07-19T08:49:00+02:00');
    assert.equal(y('datetime("08/29/2015")'), '2015-08-29T00:00:00+00:00');
    assert.equal(y('datetime("20150102")'), '2015-01-02T00:00:00+00:00');
    assert.equal(y('datetime(timestamp => 1256953732)'), '2009-10-31T01:48:52+00:00');
    assert.equal(y('datetime(string => "2015-01-02", format => "%Y-%m-%d")'), '2015-01-02T00:00:00+00:00');
    assert.equal(y('datetime(year => 2015, month => 1, day => 2)'), '2015-01-02T00:00:00+00:00');
  });

  it('takes an offset', () => {
    assert.equal(
      y('str(datetime(2015, 9, 29, 10, 5, 3, 12, offset => timespan(hours => -3, minutes => -30)))'),
      '2015-09-29 10:05:03.000012-03:30',
    );
    assert.equal(
      y('datetime(2015, 1, 1).replace(year => 2014, offset => timespan(hours => 1))'),
      '2014-01-01T00:00:00+01:00',
    );
    assert.equal(y('datetime(2015, 1, 1).replace(2014, 3)'), '2014-03-01T00:00:00+00:00');
  });

  it('refuses what Python refuses', () => {
    fails('datetime(2015, 13, 1)', /month must be in 1\.\.12/);
    fails('datetime(2015, 1, 1).replace(day => 31, month => 2)', /day is out of range for month/);
    fails('datetime(1, 1, 1) - timespan(days => 1)', /out of range/);
    fails('datetime("yesterday-ish")', /cannot read a date and time/);
    fails('datetime("2015", "%d.%m")', /does not match format/);
    fails('datetime(2015, 1, 1) < 1', /cannot compare datetime with integer/);
  });
});

describe('yaql datetime properties', () => {
  it('reads the parts of a datetime', () => {
    assert.deepEqual(
      y(
        'let(datetime(2006, 11, 21, 16, 30, 2, 123)) -> [$.year, $.month, $.day, $.hour, $.minute, $.second, $.microsecond]',
      ),
      [2006, 11, 21, 16, 30, 2, 123],
    );
    assert.equal(y('datetime(2006, 11, 21, 16, 30).weekday'), 1);
    assert.equal(y('datetime(2015, 1, 1).weekday'), 3);
    assert.deepEqual(
      y('let(datetime(2006, 11, 21, 16, 30).date) -> [$.year, $.month, $.day, $.hour]'),
      [2006, 11, 21, 0],
    );
    assert.deepEqual(y('let(datetime(2006, 11, 21, 16, 30).time) -> [$.hours, $.minutes]'), [16.5, 990]);
    assert.equal(y('datetime(2006, 11, 21, 16, 30).timestamp'), 1164126600);
    assert.equal(y('datetime(2006, 11, 21, 16, 30, offset => timespan(hours => 3)).offset.hours'), 3);
  });

  it('reproduces yaql on .utc and .timestamp of a non-UTC datetime', () => {
    // yaql's utc subtracts the offset but keeps the zone, and timestamp builds on it.
    assert.equal(y('datetime(2006, 11, 21, 16, 30, offset => timespan(hours => 3)).utc.hour'), 13);
    assert.equal(
      y('datetime(2015, 1, 1, 10, offset => timespan(hours => 3)).utc'),
      '2015-01-01T07:00:00+03:00',
    );
    assert.equal(y('datetime(2015, 1, 1, 10, offset => timespan(hours => 3)).timestamp'), 1420084800);
  });

  it('format() writes strftime directives', () => {
    assert.equal(
      y('datetime(2015, 1, 1).format("%A %a %B %b %d %j %y %I %p %H:%M:%S.%f %z %Z %%")'),
      'Thursday Thu January Jan 01 001 15 12 AM 00:00:00.000000 +0000 UTC %',
    );
    assert.equal(y('datetime(2015, 1, 1, offset => timespan(hours => 2)).format("%z %Z")'), '+0200 ');
    assert.equal(
      y('datetime(2016, 7, 19, 8, 49).format("%A, %d. %B %Y %I:%M%p")'),
      'Tuesday, 19. July 2016 08:49AM',
    );
    // glibc's unpadded fields, which Python on Linux takes.
    assert.equal(y('datetime(2016, 7, 9).format("%-d/%-m/%Y %d%%")'), '9/7/2016 09%');
    assert.equal(y('format("{0}-{1}", a, b)'), 'a-b');
  });
});

describe('yaql timespan()', () => {
  it('has total-valued properties', () => {
    assert.equal(y('timespan(days => 1, hours => 2, minutes => 3).hours'), 26.05);
    assert.equal(y('timespan(seconds => 1).microseconds'), 1000000);
    assert.equal(y('timespan(seconds => 1).milliseconds'), 1000);
    assert.equal(y('timespan(minutes => 1).seconds'), 60);
    assert.equal(y('timespan(hours => 2).minutes'), 120);
    assert.equal(y('timespan(days => 2, hours => 48).days'), 4);
  });

  it('prints as Python prints a timedelta', () => {
    assert.equal(y('timespan(days => -1, seconds => 1)'), '-1 day, 0:00:01');
    assert.equal(y('timespan(days => 2, hours => 3, microseconds => 5)'), '2 days, 3:00:00.000005');
    assert.equal(y('-timespan(days => 1)'), '-1 day, 0:00:00');
    assert.equal(y('utctz()'), '0:00:00');
  });
});

describe('yaql date arithmetic and comparisons', () => {
  it('adds and subtracts', () => {
    assert.equal(y('datetime(2015, 1, 1) + timespan(days => 1)'), '2015-01-02T00:00:00+00:00');
    assert.equal(y('timespan(days => 1) + datetime(2015, 1, 1)'), '2015-01-02T00:00:00+00:00');
    assert.equal(y('datetime(2015, 1, 1) - timespan(hours => 1)'), '2014-12-31T23:00:00+00:00');
    assert.equal(y('datetime(2015, 1, 1) - datetime(2014, 1, 1)'), '365 days, 0:00:00');
    assert.equal(y('(datetime(2015, 1, 1) - datetime(2014, 1, 1)).days'), 365);
    assert.equal(y('timespan(hours => 1) - timespan(minutes => 90)'), '-1 day, 23:30:00');
  });

  it('multiplies and divides spans', () => {
    assert.equal(y('timespan(days => 1) * 1.5'), '1 day, 12:00:00');
    assert.equal(y('2 * timespan(hours => 24)'), '2 days, 0:00:00');
    assert.equal(y('timespan(hours => 1) / timespan(minutes => 1)'), 60);
    assert.equal(y('timespan(days => 1) / 2'), '12:00:00');
    fails('timespan(days => 1) / 0', /division by zero/);
  });

  it('compares instants, whatever the offset', () => {
    assert.equal(y('datetime(2015, 1, 1) = datetime(2015, 1, 1, 3, offset => timespan(hours => 3))'), true);
    assert.equal(y('datetime(2015, 1, 1) < datetime(2015, 1, 2)'), true);
    assert.equal(y('timespan(hours => 1) > timespan(minutes => 1)'), true);
    assert.equal(y('timespan(seconds => 1) = timespan(milliseconds => 1000)'), true);
    assert.equal(y('datetime(2015, 1, 1) = 1'), false);
    assert.equal(y('max(datetime(2015, 1, 1), datetime(2016, 1, 1)).year'), 2016);
    assert.equal(y('[datetime(2016, 1, 1), datetime(2015, 1, 1)].orderBy($).first().year'), 2015);
    assert.equal(y('datetime(2015, 1, 1) in [datetime(2015, 1, 1)]'), true);
    assert.equal(y('[datetime(2015, 1, 1), datetime(2015, 1, 1)].distinct().len()'), 1);
    assert.equal(y('bool(timespan())'), false);
  });
});

describe('yaql now(), localtz() and type tests', () => {
  it('now() is the current time, in UTC unless an offset is given', () => {
    const before = Date.now();
    const now = Date.parse(y('now()') as string);
    // A bound in either direction, not a deadline: the value must lie between the two clock reads.
    assert.ok(now >= before - 1 && now <= Date.now() + 1);
    assert.match(y('now()') as string, /\+00:00$/);
    assert.match(y('now(offset => timespan(hours => 5, minutes => 30))') as string, /\+05:30$/);
    assert.equal(y('now() > datetime(2015, 1, 1)'), true);
  });

  it('localtz() is the engine process zone', () => {
    const minutes = 0 - new Date().getTimezoneOffset();
    assert.equal(y('localtz().minutes'), minutes);
  });

  it('isDatetime / isTimespan', () => {
    assert.deepEqual(y('[isDatetime(now()), isDatetime(1), isTimespan(utctz()), isTimespan("1")]'), [
      true,
      false,
      true,
      false,
    ]);
  });
});
