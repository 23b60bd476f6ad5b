import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app';
import { SessionProvider } from './session';
import './styles.css';

/** The URL's section decides which session wins on load when both kinds are signed in. */
const preferred = () =>
  location.pathname.startsWith('/dashboard/merchant')
    ? 'merchant'
    : location.pathname.startsWith('/dashboard/company')
      ? 'company'
      : null;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter basename="/dashboard">
      <SessionProvider preferred={preferred}>
        <App />
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
