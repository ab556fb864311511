import { DEFAULT_RISK_RULES, riskRulesSchema, type RiskRules } from '@mw/contract/operator/risk';
import type { SettingsService } from '../settings/settings-service';

/** The signals' rules: the owner's setting `riskRules` over the documented defaults. */
export class RiskRulesStore {
  constructor(private readonly settings: () => SettingsService) {}

  async get(): Promise<RiskRules> {
    const stored = await this.settings().get<Partial<RiskRules> | null>('riskRules', null);
    // A stored value a later version no longer accepts falls back field by field to the defaults.
    const merged = { ...DEFAULT_RISK_RULES, ...(stored ?? {}) };
    const parsed = riskRulesSchema.safeParse(merged);
    return parsed.success ? parsed.data : DEFAULT_RISK_RULES;
  }

  async set(rules: RiskRules): Promise<void> {
    await this.settings().set('riskRules', rules);
  }
}
