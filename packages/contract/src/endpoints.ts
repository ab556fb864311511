import type { EndpointDef } from './http';
import { accountEndpoints } from './account';
import { autologinEndpoints } from './autologin';
import { bonusEndpoints } from './bonus';
import { chatEndpoints } from './chat';
import { inviteEndpoints } from './invite';
import { lookupEndpoints } from './lookups';
import { qrEndpoints } from './qr';
import { refundEndpoints } from './refund';
import { responsibleEndpoints } from './responsible';
import { spinEndpoints } from './spin';
import { statementEndpoints } from './statement';
import { walletEndpoints } from './wallet';

/** Every call of spec section 7 (and the few this implementation adds), by name. */
export const endpoints = {
  ...lookupEndpoints,
  ...accountEndpoints,
  ...walletEndpoints,
  ...qrEndpoints,
  ...inviteEndpoints,
  ...refundEndpoints,
  ...bonusEndpoints,
  ...statementEndpoints,
  ...spinEndpoints,
  ...autologinEndpoints,
  ...chatEndpoints,
  ...responsibleEndpoints,
};

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export const endpointList: ReadonlyArray<readonly [EndpointName, EndpointDef]> = Object.entries(endpoints) as Array<
  [EndpointName, EndpointDef]
>;
