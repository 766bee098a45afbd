import fs from 'node:fs';
import { FINDINGS_DIR } from './support/findings';

/** Each run reports only what it measured itself. */
export default function globalSetup(): void {
  fs.rmSync(FINDINGS_DIR, { recursive: true, force: true });
}
