import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

import { appStore } from '@/lib/store';
import { toastsAtom } from '@/lib/toast';

afterEach(() => {
  cleanup();
  localStorage.clear();
  appStore.set(toastsAtom, []);
  document.body.className = '';
});
