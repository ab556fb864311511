/** Which banks a registration may name: the Thai build Thai banks; the Laos build its Lao banks, and Thai ones too for a baht wallet. */
export function bankAllowed(country: 'TH' | 'LA', laosMode: boolean, currency: 'LAK' | 'BAHT'): boolean {
  if (!laosMode) return country === 'TH';
  return country === 'LA' || currency === 'BAHT';
}
