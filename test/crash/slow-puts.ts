// Preloaded (`--import`) into an engine child by the crash test that needs a create interrupted
// inside its plugin call: every physical write takes a moment longer once made, so that a kill
// lands in that window often instead of by luck.
import { setTimeout as sleep } from 'node:timers/promises';
import { SqliteReality } from '../../src/resources/reality/sqlite.js';

const put = SqliteReality.prototype.put;
SqliteReality.prototype.put = async function (this: SqliteReality, ...args: Parameters<typeof put>) {
  await put.apply(this, args);
  await sleep(20);
};
