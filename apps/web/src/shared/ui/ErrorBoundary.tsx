import { Component, type ErrorInfo, type ReactNode } from 'react';
import i18next from 'i18next';

interface State {
  failed: boolean;
}

/**
 * Last line of defence for a render error, most often a page chunk that no longer exists after a
 * new release: offers a reload instead of a blank screen.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="status-page" role="alert" data-testid="error-page">
        <div className="status-card">
          <h1 className="page-title">{i18next.t('common.errorTitle')}</h1>
          <p className="muted">{i18next.t('failure.generic')}</p>
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            {i18next.t('common.retry')}
          </button>
        </div>
      </main>
    );
  }
}
