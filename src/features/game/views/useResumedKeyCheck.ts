import { useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { forgetPendingKeyCheck, readPendingKeyCheck, type PendingKeyCheck } from '../../llm';
import { modelSettingsChosen } from '../../settings';
import { selectWalletAddress } from '../../wallet';
import { gameActions } from '../gameSlice';

/**
 * The key check the page reloaded for (a Custom or Local server its security policy did not
 * name yet: src/features/llm/connectPolicy.ts), submitted again as soon as the wallet session
 * is back, so the player sees their Submit simply go on. Returns the check, for the form to
 * show what the player had typed; null when there is none.
 */
export function useResumedKeyCheck(): PendingKeyCheck | null {
  const dispatch = useAppDispatch();
  const walletAddress = useAppSelector(selectWalletAddress);
  const [pending] = useState(() => readPendingKeyCheck(window.sessionStorage));
  const resumed = useRef(false);
  useEffect(() => {
    if (!pending || resumed.current || walletAddress === null) return;
    resumed.current = true;
    forgetPendingKeyCheck(window.sessionStorage);
    const { provider, model, baseUrl, imageModel, apiKey } = pending;
    dispatch(modelSettingsChosen({ provider, model, baseUrl, imageModel }));
    dispatch(gameActions.apiKeySubmitted(apiKey));
  }, [pending, walletAddress, dispatch]);
  return pending;
}
