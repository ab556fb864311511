import DOMPurify from 'dompurify';
import { useMemo } from 'react';

// Links from server HTML open outside the app and cannot reach back into it. (Not in Node, where
// the guest pages are prerendered without any server HTML: DOMPurify needs a DOM.)
if (DOMPurify.isSupported) {
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

/** Renders HTML that came from the server, sanitised with DOMPurify first. */
export function SafeHtml({ html, className, testId }: { html: string; className?: string; testId?: string }) {
  const clean = useMemo(() => DOMPurify.sanitize(html, { USE_PROFILES: { html: true } }), [html]);
  return (
    <div
      className={className ? `html-content ${className}` : 'html-content'}
      data-testid={testId}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
