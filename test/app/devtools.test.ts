import {
  MASK,
  MAX_AGE,
  SHOW_STREAM_SWITCH,
  STREAM_ACTIONS,
  devToolsOptions,
  maskAction,
  maskSecrets,
  maskWhileSerializing,
  streamShown,
} from '../../src/app/devtools';
import { gameActions } from '../../src/features/game/gameSlice';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJ3YWxsZXQiOiIweDEyIn0.c2lnbmF0dXJl';

describe('maskSecrets (what Redux DevTools may show)', () => {
  test('masks the API key, tokens and signatures wherever they sit', () => {
    const state = {
      game: { apiKey: 'sk-live-123', turnCount: 3 },
      wallet: { authToken: 'eyJhbGci', signature: '0xabc', address: '0x12' },
      storage: { auth_token_0xabc: 'eyJ', signature_0xabc: '0xdef' },
      history: [{ apiKey: 'sk-old' }],
      request: { headers: { Authorization: 'Bearer abc', 'x-api-key': 'k', access_token: 't' } },
    };
    expect(maskSecrets(state)).toEqual({
      game: { apiKey: MASK, turnCount: 3 },
      wallet: { authToken: MASK, signature: MASK, address: '0x12' },
      storage: { auth_token_0xabc: MASK, signature_0xabc: MASK },
      history: [{ apiKey: MASK }],
      request: { headers: { Authorization: MASK, 'x-api-key': MASK, access_token: MASK } },
    });
  });

  test('masks a secret inside a string: a JWT, a bearer header', () => {
    expect(maskSecrets({ message: `token ${JWT} expired` }).message).toBe(`token ${MASK} expired`);
    expect(maskSecrets(['Authorization: Bearer sk-abc.def'])).toEqual([
      `Authorization: Bearer ${MASK}`,
    ]);
  });

  test('leaves the rest alone: empty secrets, token counts, story text; the original unchanged', () => {
    const state = {
      game: { apiKey: '', storyLog: [{ text: 'She said: "the token is lost"' }] },
      usage: { tokens: 120, maxTokens: 900 },
    };
    expect(maskSecrets(state)).toEqual(state);
    const withKey = { payload: { apiKey: 'sk' } };
    maskSecrets(withKey);
    expect(withKey.payload.apiKey).toBe('sk');
  });
});

test('the key actions show no key, whatever their shape', () => {
  expect(maskAction(gameActions.apiKeySubmitted('sk-live-123'))).toEqual({
    type: 'game/apiKeySubmitted',
    payload: MASK,
  });
  expect(maskAction(gameActions.apiKeyAccepted('sk-live-123')).payload).toBe(MASK);
  expect(maskAction({ type: 'game/apiKeyAccepted', payload: { key: 'sk' } }).payload).toBe(MASK);
  expect(maskAction(gameActions.apiKeyAccepted('')).payload).toBe('');
  expect(maskAction(gameActions.genreChosen('Wuxia')).payload).toBe('Wuxia');
});

test('an export written through the replacer holds no secret, and is plain JSON', () => {
  const actions = [
    gameActions.apiKeySubmitted('sk-live-123'),
    { type: 'wallet/signedIn', payload: { address: '0x12', token: JWT } },
  ];
  const shared = { apiKey: 'sk-live-123' };
  const written = JSON.stringify([actions, shared, shared], maskWhileSerializing);
  expect(written).not.toMatch(/sk-live-123|eyJ/);
  expect(JSON.parse(written)).toEqual([
    [
      { type: 'game/apiKeySubmitted', payload: MASK },
      { type: 'wallet/signedIn', payload: { address: '0x12', token: MASK } },
    ],
    { apiKey: MASK },
    { apiKey: MASK },
  ]);
});

describe('devToolsOptions', () => {
  test('name the store, keep a whole game, and hide the stream actions, exactly', () => {
    const options = devToolsOptions();
    expect(options).toEqual(
      expect.objectContaining({
        name: 'Taleweaver',
        maxAge: MAX_AGE,
        actionsDenylist: ['^game/segmentStreamed$'],
      }),
    );
    const denylist = new RegExp((options.actionsDenylist as string[]).join('|'));
    expect(STREAM_ACTIONS.every((type) => denylist.test(type))).toBe(true);
    expect(denylist.test('game/segmentStreamedTwice')).toBe(false);
    expect(denylist.test('game/segmentReceived')).toBe(false);
  });

  test('with the switch on, the stream actions are shown', () => {
    expect(devToolsOptions({ showStream: true }).actionsDenylist).toBeUndefined();
    const storage = (value: string | null) => ({
      getItem: (key: string) => (key === SHOW_STREAM_SWITCH ? value : null),
    });
    expect(streamShown(storage('1'))).toBe(true);
    expect(streamShown(storage('0'))).toBe(false);
    expect(streamShown(storage(null))).toBe(false);
    expect(streamShown(undefined)).toBe(false);
    const locked = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    expect(streamShown(locked)).toBe(false);
  });

  test('sanitize what the monitor shows and what an export writes', () => {
    const { actionSanitizer, stateSanitizer, serialize } = devToolsOptions();
    expect(actionSanitizer!(gameActions.apiKeyAccepted('sk-1'), 1).payload).toBe(MASK);
    expect(stateSanitizer!({ game: { apiKey: 'sk-1' } }, 1)).toEqual({ game: { apiKey: MASK } });
    expect(serialize).toEqual({ replacer: maskWhileSerializing, options: { refs: false } });
  });
});
