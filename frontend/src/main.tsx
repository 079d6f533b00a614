import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createApi } from './bridge';
import './app/theme.css';
import './app/shell.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App api={createApi()} />
    </StrictMode>,
  );
}
