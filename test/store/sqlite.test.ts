import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { openStore } from '../../src/store/index.js';
import { storeContractTests } from './contract.js';
import { sqliteBackendTests } from './sqlite-backend.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `store-${++files}.db`);

describe('SQLite store, file', () => {
  storeContractTests(() => openStore(newFile()), {
    openPair: async () => {
      const file = newFile();
      return [await openStore(file), await openStore(`sqlite:${file}`)];
    },
  });
});

describe('SQLite store, :memory:', () => {
  storeContractTests(() => openStore(':memory:'));
});

describe('SQLite backend', () => {
  sqliteBackendTests(newFile);
});
