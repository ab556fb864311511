import { z } from 'zod';

/**
 * A moment in an operator call's answer: the server hands a Date or an ISO 8601 string; the wire
 * carries the ISO string either way. (Here, not in http.ts: the member app's first load stays as it is.)
 */
export const instantSchema = z.union([z.date(), z.string()]).describe('ISO 8601 timestamp');
