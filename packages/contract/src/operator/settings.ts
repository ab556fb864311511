import { z } from 'zod';
import { endpoint } from '../http';
import { instantSchema } from './common';

/** Settings an operator may switch over the API. */
export const SWITCHABLE_SETTINGS = ['siteActive', 'registerOTP', 'enableChatWidget'] as const;
export const switchableSettingSchema = z.enum(SWITCHABLE_SETTINGS);

export const changesQuerySchema = z.object({ entity: z.string().max(32).optional(), key: z.string().max(64).optional() });
/** One configuration change of an operator (bonus rules, promotion codes, the wheel, banners, settings). */
export const changeSchema = z.object({
  id: z.string(),
  at: instantSchema,
  who: z.string(),
  role: z.string().nullable(),
  entity: z.string().nullable(),
  key: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  onBehalfOf: z.string().nullable(),
});

const op = { auth: false, operator: 'operator', domain: 'settings', added: true } as const;

/** Site switches and the log of configuration changes. */
export const settingsCalls = {
  operatorChanges: endpoint({
    ...op, method: 'GET', path: '/api/operator/changes', roles: ['marketing'], query: changesQuerySchema, response: z.object({ changes: z.array(changeSchema) }),
    description: 'Operators\' configuration changes (the audit log\'s rows with an entity), newest first.',
  }),
  operatorSettings: endpoint({
    ...op, method: 'GET', path: '/api/operator/settings', roles: [],
    response: z.object({ siteActive: z.boolean(), registerOTP: z.boolean(), enableChatWidget: z.boolean(), depositManual: z.boolean() }),
    description: 'The site switches as they are now (the settings screen shows each one\'s state).',
  }),
  operatorSetting: endpoint({
    ...op, method: 'PUT', path: '/api/operator/settings/:key', roles: [],
    params: z.strictObject({ key: switchableSettingSchema }), body: z.strictObject({ value: z.boolean() }), response: z.object({ key: switchableSettingSchema, value: z.boolean() }),
    description: 'Switches siteActive, registerOTP or enableChatWidget.',
  }),
};
