import fs from 'node:fs';
import { prepareDataTemplate } from '../e2e/support/server';
import { FINDINGS_DIR } from './support/findings';

/**
 * Each run reports only what it measured itself. Its servers start from a database made once
 * (prepareDataTemplate), as the browser tests' do.
 */
export default async function globalSetup(): Promise<void> {
  fs.rmSync(FINDINGS_DIR, { recursive: true, force: true });
  await prepareDataTemplate();
}
