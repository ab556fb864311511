import { moneyModule } from '../money';
import { auditModule } from '../platform/audit';
import type { DomainModule } from '../platform/module';
import { accountModule } from './account';
import { bonusModule } from './bonus';
import { activityModule } from './activity';
import { approvalModule } from './approval';
import { chatModule } from './chat';
import { backofficeModule } from './backoffice';
import { demoModule } from './demo';
import { depositModule } from './deposit';
import { inviteModule } from './invite';
import { lookupModule } from './lookup';
import { operatorsModule } from './operators';
import { otpModule } from './otp';
import { refundModule } from './refund';
import { reportsModule } from './reports';
import { responsibleModule } from './responsible';
import { riskModule } from './risk';
import { seamlessModule } from './seamless';
import { settingsModule } from './settings';
import { spinModule } from './spin';
import { statementModule } from './statement';
import { walletModule } from './wallet';

/**
 * The server's domains, in order: a module's tables may refer to, and its setup may use the
 * services of, the modules before it. A new domain is one folder under modules/ and one line here.
 */
export const modules: readonly DomainModule[] = [
  settingsModule,
  auditModule,
  lookupModule,
  otpModule,
  accountModule,
  operatorsModule,
  moneyModule,
  approvalModule,
  walletModule,
  activityModule,
  statementModule,
  depositModule,
  spinModule,
  bonusModule,
  refundModule,
  inviteModule,
  responsibleModule,
  seamlessModule,
  chatModule,
  riskModule,
  backofficeModule,
  reportsModule,
  demoModule,
];
