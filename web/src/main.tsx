import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { loadCurrentPage } from '@/app/router';
import { initAuth, watchSessionAcrossTabs } from '@/lib/auth/session';
import '@/index.css';

watchSessionAcrossTabs();
void initAuth();

void loadCurrentPage().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
