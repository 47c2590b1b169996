import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { loadCurrentPage } from '@/app/router';
import { initAuth, watchSessionAcrossTabs } from '@/lib/auth/session';
import '@/index.css';

watchSessionAcrossTabs();
void initAuth();

// Rendered as a transition, so React yields to the browser every few milliseconds while it builds
// the first page instead of holding the main thread for the whole render (a phone's long task).
void loadCurrentPage().then(() => {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
});
