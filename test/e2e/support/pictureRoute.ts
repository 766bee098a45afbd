/**
 * OpenAI's real host for a game with pictures (issue 41): its images API answered by the strict
 * fake image server (fixtures/fakeImages), everything else (the model list, chat completions) by
 * the strict text fake, as routeProviderHost does alone. Pictures can be held at the route, so
 * that a test sees the story go on while one is still being drawn, then let go.
 *
 * Playwright runs the routes of a context last registered first: the images route, set after
 * the host's, takes its paths.
 */
import type { BrowserContext } from 'playwright-core';
import type { FakeModelServer } from '../../fixtures/fakeModelServer';
import type { FakeImageServer } from '../../fixtures/fakeImages/server';
import { routeProviderHost, type ProviderRoute } from './providerRoute';

export interface PictureRoute {
  /** The text fake's calls (the host's route). */
  text: ProviderRoute;
  /** Picture requests as the page made them, in the order they reached the route. */
  pictureCalls: { url: string; status?: number }[];
  /**
   * Holds every picture request that reaches the route from now on, until the returned
   * function lets them all go (to the fake, in order).
   */
  hold(): () => void;
  /** Resolves once `count` picture requests in all have reached the route. */
  picturesAsked(count: number): Promise<void>;
}

export async function routeOpenAiWithPictures(
  context: BrowserContext,
  realBaseUrl: string,
  text: FakeModelServer,
  images: FakeImageServer,
): Promise<PictureRoute> {
  const textRoute = await routeProviderHost(context, realBaseUrl, text);
  const realOrigin = new URL(realBaseUrl).origin;
  const pictureCalls: PictureRoute['pictureCalls'] = [];
  let gate: Promise<void> = Promise.resolve();
  const waiters: { count: number; resolve: () => void }[] = [];
  await context.route(`${realBaseUrl}/images/**`, async (routed) => {
    const request = routed.request();
    const call: PictureRoute['pictureCalls'][number] = { url: request.url() };
    pictureCalls.push(call);
    for (const waiter of waiters.filter((w) => pictureCalls.length >= w.count)) waiter.resolve();
    await gate;
    const fakeUrl = images.origin + request.url().slice(realOrigin.length);
    const response = await routed.fetch({ url: fakeUrl });
    call.status = response.status();
    await routed.fulfill({ response });
  });
  return {
    text: textRoute,
    pictureCalls,
    hold() {
      let release!: () => void;
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return release;
    },
    picturesAsked(count) {
      if (pictureCalls.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
  };
}
