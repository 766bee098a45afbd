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
import { browserContext } from './app/sagaContext';
import { makeStore } from './app/store';

const store = makeStore({
  persist: true,
  backend: browserBackend(),
  // Every saga context part, filled with the browser's own (src/app/sagaContext.ts).
  context: browserContext(window),
});
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container, { onCaughtError: reportCaughtError }).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
