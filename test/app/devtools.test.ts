import { MASK, maskAction, maskSecrets } from '../../src/app/devtools';
import { gameActions } from '../../src/features/game/gameSlice';

describe('maskSecrets (what Redux DevTools may show)', () => {
  test('masks the API key, tokens and signatures wherever they sit', () => {
    const state = {
      game: { apiKey: 'sk-live-123', turnCount: 3 },
      wallet: { authToken: 'eyJhbGci', signature: '0xabc', address: '0x12' },
      storage: { auth_token_0xabc: 'eyJ' },
      history: [{ apiKey: 'sk-old' }],
    };
    expect(maskSecrets(state)).toEqual({
      game: { apiKey: MASK, turnCount: 3 },
      wallet: { authToken: MASK, signature: MASK, address: '0x12' },
      storage: { auth_token_0xabc: MASK },
      history: [{ apiKey: MASK }],
    });
  });

  test('leaves an empty key visible as empty, and does not change the original', () => {
    const action = { type: 'game/apiKeyAccepted', payload: { apiKey: '' } };
    expect(maskSecrets(action)).toEqual(action);
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
  expect(maskAction(gameActions.genreChosen('Wuxia')).payload).toBe('Wuxia');
});
