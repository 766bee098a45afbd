/**
 * The DevTools stand-in (devtoolsStandIn.ts) for a jest test in Node: import this first, before
 * anything that loads Redux Toolkit, which looks for the extension once, as it loads. The
 * `window` it looks at exists only for that moment, so nothing else takes Node for a browser.
 */
import { installDevToolsStandIn, type DevToolsStandIn } from './devtoolsStandIn';

const page: { __DEVTOOLS_STAND_IN__?: DevToolsStandIn } = {};
installDevToolsStandIn(page);

const global = globalThis as { window?: unknown };
if (global.window !== undefined) throw new Error('withDevToolsStandIn is for the node environment');
global.window = page;
try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@reduxjs/toolkit');
} finally {
  delete global.window;
}

/** What the stand-in recorded of the last store made. */
export const devTools = page.__DEVTOOLS_STAND_IN__!;
