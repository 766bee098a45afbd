import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@fontsource/cinzel/600.css';
import '@fontsource/literata/400.css';
import '@fontsource/literata/400-italic.css';
import '@fontsource/literata/700.css';
import './app/styles/global.css';
import { App } from './app/App';
import { reportCaughtError } from './app/ErrorBoundary';
import { browserBackend } from './app/backendLocation';
import { makeStore } from './app/store';
import { browserConnectPage } from './features/llm';
import { browserWalletEnvironment } from './features/wallet';

const store = makeStore({
  persist: true,
  backend: browserBackend(),
  context: {
    walletEnvironment: browserWalletEnvironment(window),
    storage: window.localStorage,
    // Read now: the cookie as the server saw it when it wrote this page's policy.
    connectPage: browserConnectPage(window),
  },
});
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container, { onCaughtError: reportCaughtError }).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
