import type { GameCode } from '@mw/contract/constants';

export interface CatalogueEntry {
  code: GameCode;
  name: string;
  category: 'slot' | 'sport' | 'lotto';
  ftWalletSlot: number;
  /** Brand colours (dark, accent): the art files art/<code>.logo.svg and art/<code>.background.svg are drawn in them. */
  colors: [string, string];
  /** Launch style (spec section 2): an auto-login call, a form-state event, or the web page. */
  launch: 'autologin' | 'event' | 'web';
}

/** The 16 providers of spec section 2, as seeded into the games table. */
export const CATALOGUE: CatalogueEntry[] = [
  { code: 'PG', name: 'PG Soft', category: 'slot', ftWalletSlot: 1, colors: ['#0b1d3a', '#f5b400'], launch: 'autologin' },
  { code: 'JOKER', name: 'Joker Gaming', category: 'slot', ftWalletSlot: 1, colors: ['#3b0a45', '#e84393'], launch: 'web' },
  { code: 'SLOTXO', name: 'SlotXO', category: 'slot', ftWalletSlot: 1, colors: ['#102a43', '#2ec4b6'], launch: 'web' },
  { code: 'SUPERSLOT', name: 'SuperSlot', category: 'slot', ftWalletSlot: 1, colors: ['#2d0b00', '#ff7b00'], launch: 'web' },
  { code: 'BETFLIX', name: 'Betflix', category: 'slot', ftWalletSlot: 1, colors: ['#1a0000', '#e50914'], launch: 'autologin' },
  { code: 'ASKMEBET', name: 'AskMeBet', category: 'slot', ftWalletSlot: 1, colors: ['#1b1035', '#a3e635'], launch: 'autologin' },
  { code: 'AREASLOT', name: 'Area Slot', category: 'slot', ftWalletSlot: 1, colors: ['#14213d', '#fca311'], launch: 'autologin' },
  { code: 'SLOTRACHA', name: 'Slot Racha', category: 'slot', ftWalletSlot: 1, colors: ['#2b2d42', '#ef233c'], launch: 'autologin' },
  { code: 'PGSLOT', name: 'PG Slot', category: 'slot', ftWalletSlot: 1, colors: ['#03045e', '#00b4d8'], launch: 'autologin' },
  { code: 'JOKER2', name: 'Joker 2', category: 'slot', ftWalletSlot: 10, colors: ['#240046', '#c77dff'], launch: 'autologin' },
  { code: 'UFABET', name: 'UFABET', category: 'sport', ftWalletSlot: 1, colors: ['#0f3d0f', '#f9c80e'], launch: 'event' },
  { code: 'SEXYGAME', name: 'Sexy Baccarat', category: 'sport', ftWalletSlot: 1, colors: ['#3d0000', '#ff4d6d'], launch: 'web' },
  { code: 'IMI', name: 'IMI Casino', category: 'sport', ftWalletSlot: 1, colors: ['#1b263b', '#e0e1dd'], launch: 'autologin' },
  { code: 'USUN', name: 'USUN Sport', category: 'sport', ftWalletSlot: 1, colors: ['#003566', '#ffc300'], launch: 'autologin' },
  { code: 'CIRCUS', name: 'Circus Casino', category: 'sport', ftWalletSlot: 1, colors: ['#540b0e', '#e09f3e'], launch: 'autologin' },
  { code: 'HUAYHD', name: 'Huay HD', category: 'lotto', ftWalletSlot: 1, colors: ['#0d1b2a', '#52b788'], launch: 'autologin' },
];

/** Path segment of each auto-login call of spec section 7 → game code. */
export const AUTOLOGIN_CODES: Record<string, GameCode> = {
  pg: 'PG',
  betflix: 'BETFLIX',
  askmebet: 'ASKMEBET',
  imi: 'IMI',
  usun: 'USUN',
  areaslot: 'AREASLOT',
  circus: 'CIRCUS',
  slotracha: 'SLOTRACHA',
  pgslot: 'PGSLOT',
  joker2: 'JOKER2',
  huayhd: 'HUAYHD',
};
