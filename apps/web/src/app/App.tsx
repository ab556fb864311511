import { BrowserRouter } from 'react-router';
import { AppRoutes } from './AppRoutes';
import { AppProviders } from './providers/AppProviders';

export function App() {
  return (
    <BrowserRouter>
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
