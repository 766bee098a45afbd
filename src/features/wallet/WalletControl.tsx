import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../shared/hooks';
import { Link } from '../../shared/links';
import { shortenAddress } from '../../engine/text';
import {
  connectCancelled,
  connectRequested,
  disconnectRequested,
  errorDismissed,
  walletChosen,
  type WalletState,
} from './walletSlice';

type WithWallet = { wallet: WalletState };

/** The header's wallet control (SPEC.md section 2, Common layout). */
export function WalletControl() {
  const wallet = useAppSelector((state: WithWallet) => state.wallet);
  return (
    <div className="wallet-control">
      {wallet.status === 'verified' && wallet.address ? (
        <WalletMenu address={wallet.address} />
      ) : (
        <ConnectButton busy={wallet.status !== 'disconnected'} />
      )}
      {wallet.status === 'choosing' && <WalletChooser wallet={wallet} />}
      {wallet.error && <WalletError code={wallet.error} chainId={wallet.errorChainId} />}
    </div>
  );
}

function ConnectButton({ busy }: { busy: boolean }) {
  const dispatch = useAppDispatch();
  return (
    <button
      type="button"
      className="button primary wallet-connect"
      aria-busy={busy}
      disabled={busy}
      onClick={() => dispatch(connectRequested())}
    >
      <FormattedMessage id={busy ? 'wallet.signing' : 'wallet.connect'} />
    </button>
  );
}

/** The shortened address with its tick, opening Profile and Disconnect. */
function WalletMenu({ address }: { address: string }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent) {
        if (event.key !== 'Escape') return;
        toggle.current?.focus();
      } else if (root.current?.contains(event.target as Node)) {
        return;
      }
      setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [open]);

  const short = shortenAddress(address);
  return (
    <div className="wallet-menu" ref={root}>
      <button
        ref={toggle}
        type="button"
        className="button wallet-address"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={intl.formatMessage({ id: 'wallet.menuLabel' }, { address: short })}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="wallet-address__text">{short}</span>
        <span className="wallet-address__tick" aria-hidden="true">
          ✓
        </span>
      </button>
      {open && (
        <ul className="wallet-menu__list" id={menuId} role="menu">
          <li role="none">
            <Link role="menuitem" to="/profile" onClick={() => setOpen(false)}>
              <FormattedMessage id="wallet.profile" />
            </Link>
          </li>
          <li role="none">
            <button type="button" role="menuitem" onClick={() => dispatch(disconnectRequested())}>
              <FormattedMessage id="wallet.disconnect" />
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}

/** Several wallets are installed: the player picks the one to sign with. */
function WalletChooser({ wallet }: { wallet: WalletState }) {
  const dispatch = useAppDispatch();
  const headingId = useId();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div className="wallet-chooser" role="dialog" aria-modal="true" aria-labelledby={headingId}>
      <div className="wallet-chooser__panel">
        <h2 id={headingId}>
          <FormattedMessage id="wallet.choose.title" />
        </h2>
        <ul>
          {wallet.choices.map((choice, index) => (
            <li key={choice.id}>
              <button
                ref={index === 0 ? first : undefined}
                type="button"
                className="button wallet-chooser__option"
                onClick={() => dispatch(walletChosen(choice.id))}
              >
                {/^data:image\//.test(choice.icon) && (
                  <img src={choice.icon} alt="" width={24} height={24} />
                )}
                {choice.name}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="button" onClick={() => dispatch(connectCancelled())}>
          <FormattedMessage id="wallet.choose.cancel" />
        </button>
      </div>
    </div>
  );
}

function WalletError({
  code,
  chainId,
}: {
  code: NonNullable<WalletState['error']>;
  chainId: number | null;
}) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  return (
    <div className="wallet-error" role="alert">
      <span>
        <FormattedMessage id={`wallet.error.${code}`} values={{ chainId: chainId ?? '?' }} />
      </span>
      <button
        type="button"
        className="wallet-error__dismiss"
        aria-label={intl.formatMessage({ id: 'wallet.error.dismiss' })}
        onClick={() => dispatch(errorDismissed())}
      >
        ×
      </button>
    </div>
  );
}
