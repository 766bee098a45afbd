/**
 * compiled.json is committed so the chain tests need no compiler; this keeps it the compiler's
 * true output for the sources beside it (run `npm run contracts` after changing a .sol file).
 */
import fs from 'node:fs';
import { compileTestAccounts, compiledPath, renderCompiled } from '../../scripts/contracts/build';

it('the committed compiled.json is what the contract sources compile to', () => {
  const committed = fs.readFileSync(compiledPath, 'utf8');
  const fresh = compileTestAccounts();
  expect(JSON.parse(committed)).toEqual(fresh);
  expect(committed).toBe(renderCompiled(fresh));
}, 60_000);
