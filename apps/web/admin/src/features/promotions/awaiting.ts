/** Whether a save answered 202 awaiting-approval (a credit code, a bonus above the cap: a second person applies it). */
export function isAwaiting(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && 'approvalId' in answer;
}
