/**
 * @jest-environment jsdom
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { ErrorBoundary } from '../../src/app/ErrorBoundary';
import type { AppStore } from '../../src/app/store';
import { onDemand } from '../../src/shared/onDemand';
import { renderWithProviders } from '../support/render';

const chunkLoadError = () =>
  Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError' });

function Greeting({ name }: { name: string }) {
  return <p>Hello, {name}</p>;
}

/** The stores the renders were made over, stopped after each test. */
let stores: AppStore[] = [];

function inEnglish(ui: ReactNode) {
  const rendered = renderWithProviders(
    <ErrorBoundary>
      <p>The rest of the screen</p>
      {ui}
    </ErrorBoundary>,
    { language: 'en' },
  );
  stores.push(rendered.store);
  return rendered;
}

describe('onDemand', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => {
    stores.forEach((store) => store.stop());
    stores = [];
    jest.restoreAllMocks();
  });

  test('downloads the part once, the first time it is shown, and says so while it comes', async () => {
    let arrive: (part: typeof Greeting) => void = () => undefined;
    const load = jest.fn(() => new Promise<typeof Greeting>((resolve) => (arrive = resolve)));
    const Part = onDemand(load);
    expect(load).not.toHaveBeenCalled();

    const { unmount } = inEnglish(<Part name="Ada" />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    arrive(Greeting);
    expect(await screen.findByText('Hello, Ada')).toBeTruthy();
    unmount();

    inEnglish(<Part name="Bea" />);
    expect(screen.getByText('Hello, Bea')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('a failed download says so in place, and Try again downloads it again', async () => {
    const load = jest
      .fn<Promise<typeof Greeting>, []>()
      .mockRejectedValueOnce(chunkLoadError())
      .mockResolvedValue(Greeting);
    const Part = onDemand(load);
    inEnglish(<Part name="Ada" />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/could not be downloaded/);
    expect(screen.getByText('The rest of the screen')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Hello, Ada')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });

  test("an error that is not a download goes up to the page's boundary", async () => {
    const Part = onDemand<{ name: string }>(() => Promise.reject(new TypeError('x is undefined')));
    inEnglish(<Part name="Ada" />);
    expect(
      await screen.findByRole('heading', { name: 'Unexpected Application Error' }),
    ).toBeTruthy();
    expect(screen.queryByText('The rest of the screen')).toBeNull();
  });
});
