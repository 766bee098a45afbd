import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { VerifiedWalletSession } from './session';

/**
 * What went wrong, named for the message catalogue (SPEC.md section 8, Wallet, and the wallet
 * library's codes the issue asks to explain rather than show raw).
 */
export type WalletErrorCode =
  | 'noWallet'
  | 'authFailed'
  | 'verificationFailed'
  | 'inProgress'
  | 'rejected'
  | 'timeout'
  | 'network'
  /** The once-a-second check broke (SPEC.md section 9). */
  | 'checkFailed'
  /** The session kept in this browser could not be taken up at start. */
  | 'restoreFailed'
  /** The wallet announced another account, and following it broke. */
  | 'accountChangeFailed'
  /** Disconnect broke before the home page reloaded: the credentials may still be here. */
  | 'disconnectFailed'
  /** The backend's sign-in limit per address and minute is spent. */
  | 'rateLimited'
  /** A smart account on a chain the server has no endpoint for (CHAIN_RPC_URLS). */
  | 'smartAccountUnchecked'
  /** The server could not reach the smart account's chain; trying again may work. */
  | 'chainUnavailable';

/** An injected wallet, as EIP-6963 announces it (plain data; the provider stays outside). */
export interface WalletInfo {
  id: string;
  name: string;
  icon: string;
}

/**
 * SPEC.md section 4, Wallet session: disconnected → connecting → signing → verified.
 * `choosing` is the step where several wallets were found and the player picks one.
 */
export type WalletStatus = 'disconnected' | 'connecting' | 'choosing' | 'signing' | 'verified';

export interface WalletState {
  status: WalletStatus;
  /** Lowercase address of the verified (or signing) account. */
  address: string | null;
  error: WalletErrorCode | null;
  /** The chain a smart account's failure concerns (its message names it), else null. */
  errorChainId: number | null;
  /** The wallets offered when the player must choose. */
  choices: WalletInfo[];
  /**
   * The verified session (address, token, expiry), kept in step with this browser's storage by
   * the wallet saga: set exactly when `status` is 'verified'. DevTools masks its token.
   */
  session: VerifiedWalletSession | null;
}

export const initialWalletState: WalletState = {
  status: 'disconnected',
  address: null,
  error: null,
  errorChainId: null,
  choices: [],
  session: null,
};

const busy = (status: WalletStatus) =>
  status === 'connecting' || status === 'choosing' || status === 'signing';

function setError(state: WalletState, code: WalletErrorCode | null, chainId: number | null = null) {
  state.error = code;
  state.errorChainId = chainId;
}

/** Verified, with the session's address lowercase (as every address in the store). */
function verify(state: WalletState, session: VerifiedWalletSession) {
  const address = session.address.toLowerCase();
  state.status = 'verified';
  state.address = address;
  state.session = { ...session, address };
  setError(state, null);
}

/** No account and no session. */
function disconnect(state: WalletState) {
  state.status = 'disconnected';
  state.address = null;
  state.session = null;
}

export const walletSlice = createSlice({
  name: 'wallet',
  initialState: initialWalletState,
  reducers: {
    /** The player pressed Connect Wallet (or an account change needs a new signature). */
    connectRequested(state) {
      // SPEC.md section 5: only one signing process may run at a time.
      if (busy(state.status)) {
        setError(state, 'inProgress');
        return;
      }
      state.status = 'connecting';
      setError(state, null);
    },
    /** Several wallets answered; the player picks one. */
    walletChoiceOffered(state, action: PayloadAction<WalletInfo[]>) {
      if (state.status !== 'connecting') return;
      state.status = 'choosing';
      state.choices = action.payload;
    },
    walletChosen: {
      reducer(state) {
        if (state.status !== 'choosing') return;
        state.status = 'connecting';
        state.choices = [];
      },
      prepare: (walletId: string) => ({ payload: walletId }),
    },
    /** The wallet gave its account; the sign-in message goes to it for signing. */
    signatureRequested(state, action: PayloadAction<string>) {
      if (state.status !== 'connecting') return;
      state.status = 'signing';
      state.address = action.payload.toLowerCase();
    },
    /** The server accepted the signature and issued the token. */
    signedIn(state, action: PayloadAction<VerifiedWalletSession>) {
      verify(state, action.payload);
      state.choices = [];
    },
    /**
     * A session already verified in this browser is taken up (reload, account switch back,
     * another tab's sign-in).
     */
    sessionRestored(state, action: PayloadAction<VerifiedWalletSession>) {
      if (!busy(state.status)) verify(state, action.payload);
    },
    signInFailed: {
      reducer(state, action: PayloadAction<{ code: WalletErrorCode; chainId: number | null }>) {
        if (state.status !== 'verified') disconnect(state);
        setError(state, action.payload.code, action.payload.chainId);
        state.choices = [];
      },
      prepare: (code: WalletErrorCode, chainId: number | null = null) => ({
        payload: { code, chainId },
      }),
    },
    /** The player closed the wallet chooser. */
    connectCancelled(state) {
      if (!busy(state.status)) return;
      disconnect(state);
      state.choices = [];
    },
    /** No account any more, an expired token, or another address: the session is gone. */
    sessionEnded(state) {
      if (!busy(state.status)) disconnect(state);
    },
    disconnectRequested() {
      // The saga clears the stored credentials and reloads to /.
    },
    // The other flows' failures: each is told, and the player tries again (Connect Wallet,
    // Disconnect; the check runs again within a second). The session stays as it was.
    sessionCheckFailed(state) {
      setError(state, 'checkFailed');
    },
    sessionRestoreFailed(state) {
      setError(state, 'restoreFailed');
    },
    accountChangeFailed(state) {
      setError(state, 'accountChangeFailed');
    },
    disconnectFailed(state) {
      setError(state, 'disconnectFailed');
    },
    errorDismissed(state) {
      setError(state, null);
    },
  },
  selectors: {
    selectWalletStatus: (wallet) => wallet.status,
    selectWalletAddress: (wallet) => (wallet.status === 'verified' ? wallet.address : null),
    /**
     * The verified session, or null: what a request sent as the player's wallet needs. Its
     * expiry is the wallet saga's to watch (checked every second, SPEC.md section 9), so a
     * session past it is ended there, not guessed here.
     */
    selectWalletSession: (wallet) => (wallet.status === 'verified' ? wallet.session : null),
    /** The account signed in or signing in (shown in the header), with or without a token. */
    selectWalletAccount: (wallet) => wallet.address,
    selectWalletError: (wallet) => wallet.error,
    selectWalletChoices: (wallet) => wallet.choices,
    selectIsWalletBusy: (wallet) => busy(wallet.status),
  },
});

export const {
  connectRequested,
  walletChoiceOffered,
  walletChosen,
  signatureRequested,
  signedIn,
  sessionRestored,
  signInFailed,
  connectCancelled,
  sessionEnded,
  disconnectRequested,
  sessionCheckFailed,
  sessionRestoreFailed,
  accountChangeFailed,
  disconnectFailed,
  errorDismissed,
} = walletSlice.actions;

export const {
  selectWalletStatus,
  selectWalletAddress,
  selectWalletSession,
  selectWalletAccount,
  selectWalletError,
  selectWalletChoices,
  selectIsWalletBusy,
} = walletSlice.selectors;
