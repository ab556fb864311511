import type { ReactNode } from 'react';

/**
 * A drawing of the three BCEL One transfer steps (open Transfer, enter the account, enter the kip
 * amount and confirm), bundled as SVG: no external image. Its words are the app's own labels
 * (BCEL One, digits); the steps are written out in the member's language beside it.
 */
export function BcelGuideImage({ label }: { label: string }) {
  const phone = (x: number, step: number, screen: ReactNode) => (
    <g transform={`translate(${x} 14)`}>
      <rect width="84" height="132" rx="12" fill="#1d1a3f" stroke="#5b5496" strokeWidth="2" />
      <rect x="6" y="12" width="72" height="108" rx="4" fill="#fff" />
      <rect x="32" y="4" width="20" height="3" rx="1.5" fill="#5b5496" />
      {screen}
      <circle cx="0" cy="0" r="12" fill="#f5c451" stroke="#0c0a24" strokeWidth="2" />
      <text x="0" y="4.5" textAnchor="middle" fontSize="13" fontWeight="700" fill="#231800">
        {step}
      </text>
    </g>
  );
  const arrow = (x: number) => <path d={`M${x} 80h14m-5-5 5 5-5 5`} fill="none" stroke="#f5c451" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />;
  return (
    <svg className="bcel-guide-image" viewBox="0 0 332 154" role="img" aria-label={label} data-testid="bcel-guide-image">
      {phone(
        14,
        1,
        <>
          <rect x="6" y="12" width="72" height="20" fill="#c8102e" />
          <text x="42" y="26" textAnchor="middle" fontSize="9" fontWeight="700" fill="#fff">
            BCEL One
          </text>
          {[0, 1].map((row) =>
            [0, 1].map((col) => (
              <rect key={`${row}${col}`} x={14 + col * 30} y={42 + row * 32} width="26" height="26" rx="5" fill={row === 0 && col === 0 ? '#c8102e' : '#ece9f7'} />
            )),
          )}
          <path d="M20 52h14m-4-4 4 4-4 4M34 60H20m4-4-4 4 4 4" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </>,
      )}
      {arrow(104)}
      {phone(
        124,
        2,
        <>
          <rect x="6" y="12" width="72" height="20" fill="#c8102e" />
          <rect x="12" y="42" width="60" height="18" rx="4" fill="#fff" stroke="#c8102e" strokeWidth="1.5" />
          <text x="42" y="55" textAnchor="middle" fontSize="8.5" fontWeight="600" fill="#1d1a3f">
            0100 •••• 67
          </text>
          {[0, 1, 2].map((row) =>
            [0, 1, 2].map((col) => <circle key={`${row}${col}`} cx={24 + col * 18} cy={76 + row * 13} r="4.5" fill="#ece9f7" />),
          )}
        </>,
      )}
      {arrow(214)}
      {phone(
        234,
        3,
        <>
          <rect x="6" y="12" width="72" height="20" fill="#c8102e" />
          <text x="42" y="56" textAnchor="middle" fontSize="12" fontWeight="700" fill="#1d1a3f">
            ₭ 500,000
          </text>
          <rect x="14" y="64" width="56" height="2" rx="1" fill="#ece9f7" />
          <rect x="16" y="84" width="52" height="24" rx="12" fill="#1f9d55" />
          <path d="M33 96l6 6 12-12" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
        </>,
      )}
    </svg>
  );
}
