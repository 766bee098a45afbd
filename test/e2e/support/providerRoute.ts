/**
 * A real provider's host, as the browser calls it, answered by a fake model server that plays
 * that provider (Playwright's context.route): the preset is played through its own base URL.
 *
 * CORS, as Playwright 1.65 does it in Chromium (coreBundle.js): while any route is set, it
 * answers every CORS preflight (OPTIONS) itself, with a 204 allowing the request's origin,
 * method and headers, and the route handler never sees it; and a fulfilled cross-origin
 * response without an Access-Control-Allow-Origin gets one added (the request's origin, with
 * credentials allowed). So a routed host cannot show a CORS failure: the fake's own CORS rules
 * (its preflight answer, allowedOrigins) are tested only when the page calls the fake directly.
 * What can be checked is that the fake's own header is the one the page got: the strict
 * hosted fakes send '*', which Playwright leaves as it is, where its own would be the origin.
 */
import type { BrowserContext } from 'playwright-core';
import type { FakeModelServer } from '../../fixtures/fakeModelServer';

export interface RoutedCall {
  method: string;
  /** What the page asked for: the provider's real URL. */
  url: string;
  /** Where it was answered: the fake's URL. */
  fakeUrl: string;
  status: number;
  /** Access-Control-Allow-Origin as the fake sent it. */
  sentAllowOrigin: string | undefined;
}

export interface PageResponse {
  url: string;
  status: number;
  /** Access-Control-Allow-Origin as the page received it. */
  allowOrigin: string | undefined;
}

export interface ProviderRoute {
  /** The calls the route answered, in order. */
  calls: RoutedCall[];
  /** The responses from the provider's host as the page saw them, in order. */
  seen: PageResponse[];
}

/**
 * Sends every request for `realBaseUrl`'s origin to the fake (the same path and query, the
 * same method, headers and body) and fulfils it with the fake's answer, headers included.
 */
export async function routeProviderHost(
  context: BrowserContext,
  realBaseUrl: string,
  fake: FakeModelServer,
): Promise<ProviderRoute> {
  const realOrigin = new URL(realBaseUrl).origin;
  const fakeOrigin = new URL(fake.url).origin;
  const route: ProviderRoute = { calls: [], seen: [] };
  await context.route(`${realOrigin}/**`, async (routed) => {
    const request = routed.request();
    const fakeUrl = fakeOrigin + request.url().slice(realOrigin.length);
    // route.fetch keeps the request's method, headers and body; only the URL changes.
    const response = await routed.fetch({ url: fakeUrl });
    route.calls.push({
      method: request.method(),
      url: request.url(),
      fakeUrl,
      status: response.status(),
      sentAllowOrigin: response.headers()['access-control-allow-origin'],
    });
    await routed.fulfill({ response });
  });
  context.on('response', (response) => {
    if (!response.url().startsWith(`${realOrigin}/`)) return;
    route.seen.push({
      url: response.url(),
      status: response.status(),
      allowOrigin: response.headers()['access-control-allow-origin'],
    });
  });
  return route;
}
