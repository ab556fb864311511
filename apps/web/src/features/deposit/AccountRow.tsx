import { CopyButton } from '../../shared/ui/CopyButton';
import { Icon, type IconName } from '../../shared/ui/Icon';

interface AccountRowProps {
  label: string;
  /** What is shown (an account number in its 3-3-rest form). */
  value: string;
  /** What is copied (the bare digits); defaults to `value`. */
  copy?: string;
  copyLabel: string;
  testId?: string;
  copyTestId?: string;
  /** An account or e-wallet number: set large, in tabular digits. */
  number?: boolean;
}

/** One value to transfer to (account number, account name) with its copy button and toast. */
export function AccountRow({ label, value, copy, copyLabel, testId, copyTestId, number = false }: AccountRowProps) {
  return (
    <div className="deposit-row">
      <div className="deposit-row-value">
        <span className="deposit-row-label">{label}</span>
        <span className={number ? 'deposit-row-text deposit-row-number' : 'deposit-row-text'} data-testid={testId}>
          {value}
        </span>
      </div>
      <CopyButton value={copy ?? value} label={copyLabel} testId={copyTestId} />
    </div>
  );
}

/**
 * Brand colour of the channels' code badges (decorative: the name is always written beside it),
 * each deepened until white text on it reaches 4.5:1 (axe color-contrast).
 */
const BADGE_COLOURS: Record<string, string> = {
  KBANK: '#0b7a24',
  SCB: '#4e2a84',
  GSB: '#b8106b',
  KTB: '#0a6a9a',
  BCEL: '#c8102e',
  TRUEWALLET: '#b04d08',
};

/** Codes too long for the tile. */
const SHORT_CODES: Record<string, string> = { PAYTIMZ: 'PTZ', PAYONEX: 'PNX' };

/** The channel's code (or an icon) in a coloured tile, in place of a logo. */
export function ChannelBadge({ code, icon }: { code: string; icon?: IconName }) {
  const colour = BADGE_COLOURS[code];
  return (
    <span className="channel-badge" style={colour ? { background: colour, color: '#fff' } : undefined} aria-hidden="true">
      {icon ? <Icon name={icon} size={22} /> : (SHORT_CODES[code] ?? code.slice(0, 5))}
    </span>
  );
}
