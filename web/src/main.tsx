import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { initAuth, watchSessionAcrossTabs } from '@/lib/auth/session';
import '@/index.css';

watchSessionAcrossTabs();
void initAuth();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
