import { STORAGE_KEYS } from '@mw/contract/constants';
import { readStorage, writeStorage } from '../../shared/storage';

/** localStorage `remember-agreement`: set once the member accepted the agreement. */
export function agreementAccepted(): boolean {
  return readStorage('local', STORAGE_KEYS.agreement) !== null;
}

export function rememberAgreement(): void {
  writeStorage('local', STORAGE_KEYS.agreement, 'true');
}
