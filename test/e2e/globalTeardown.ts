import { removeDataTemplate, type RunningServer } from './support/server';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __E2E_SERVER__?: RunningServer }).__E2E_SERVER__?.stop();
  removeDataTemplate();
}
