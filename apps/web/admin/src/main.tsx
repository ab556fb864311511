import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../../src/shared/ui/fonts';
import '../../src/shared/ui/theme.css';
import './shared/admin.css';
import { AdminApp } from './app/AdminApp';
import { setupI18n } from './i18n/i18n';

setupI18n();
const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
createRoot(root).render(
  <StrictMode>
    <AdminApp />
  </StrictMode>,
);
