import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  if (typeof window === 'undefined') return; // node-environment tests
  cleanup();
  window.location.hash = '';
  window.localStorage.clear();
});
