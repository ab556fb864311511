import { useId } from 'react';

/** The app's mark: a gold wallet on a night-blue tile. */
export function LogoMark({ size = 40 }: { size?: number }) {
  const gradient = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false" className="logo-mark">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ffe08a" />
          <stop offset="1" stopColor="#e9a91c" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="18" fill="#221b57" />
      <rect x="1" y="1" width="62" height="62" rx="17" fill="none" stroke="rgba(255,224,138,.35)" strokeWidth="2" />
      <path
        d="M14 22a6 6 0 0 1 6-6h22a4 4 0 0 1 4 4v2H20a2 2 0 0 0 0 4h28a4 4 0 0 1 4 4v16a6 6 0 0 1-6 6H20a6 6 0 0 1-6-6z"
        fill={`url(#${gradient})`}
      />
      <circle cx="42" cy="37" r="4" fill="#221b57" />
    </svg>
  );
}

/** Mark plus name; the name is text so it follows the site's own name. */
export function Logo({ name, size = 36 }: { name: string; size?: number }) {
  return (
    <span className="logo">
      <LogoMark size={size} />
      <span className="logo-name">{name}</span>
    </span>
  );
}
