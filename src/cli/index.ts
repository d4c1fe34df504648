// `node dist/cli/index.js ...` or `tsx src/cli/index.ts ...`: the CLI as a script.
import { main } from './main.js';

main(process.argv).then((code) => {
  process.exitCode = code;
});
