import type { FastifyBaseLogger } from 'fastify';
import { idempotencyOf } from '../../money';
import { newTransRef } from '../../providers/bank/sandbox-bank';
import type { Services } from '../../platform/services';

/**
 * The second demo member, whose requests fill the back office's queues (the README's member
 * walkthrough stays on the first one).
 */
export const DEMO_QUEUE_MEMBER = {
  username: '0898765432',
  password: 'demo1234',
  id: 'de300000000000000000de31',
  name: 'Somchai Demo',
  bankCode: 'KBANK',
  bankAccountName: 'SOMCHAI DEMO',
  bankAccountNo: '0987654321',
} as const;

/** What the queue is made of (amounts in satang). */
const TOP_UP = 200_000;
const WITHDRAWAL = 100_000;
const SLIP_AMOUNT = 50_000;
const UNMATCHED_AMOUNT = 150_000;
/** The money that comes with no member: from an account no member registered. */
const STRANGER = { bankCode: 'SCB', accountNo: '4120987654', name: 'WICHAI SUKSAWAT' } as const;
/** The demo deposit accounts the queue's transfers go to (DEMO_CHANNELS). */
const GSB_MANUAL = { bankCode: 'GSB', accountNo: '020123456789' } as const;
const KBANK_AUTO = { bankCode: 'KBANK', accountNo: '0451234567' } as const;
const COMPANY = 'GOLDEN WALLET CO LTD';
export const DEMO_CHAT_TEXT = 'สวัสดีครับ ถอนเงินไปแล้วยังไม่เข้าบัญชีครับ';

/** The setting that records which steps of the queue were made (each once per database). */
const DONE_KEY = 'demoQueue';
type Step = 'withdrawal' | 'slip' | 'unmatched' | 'chat';
type Done = Partial<Record<Step, string>>;

/**
 * The back office's demo work queue (SEED_DEMO with SEED_DEMO_QUEUE), made once per database
 * through the services of the domains that own the data, as the member and the bank would:
 *  - withdrawal: a sandbox top-up and a withdrawal of the second demo member (WalletService
 *    `add` and `withdraw`, each under an Idempotency-Key of its own), pending for finance;
 *  - slip: a slip of that member's transfer to the GSB account, rendered by the sandbox bank,
 *    uploaded through SlipService; the bank's records do not show the transfer yet, so it is a
 *    slip in progress (UNSTABLE_REFNO_ON_SLIP) that an operator approves with an amount or
 *    refuses — left alone, the slip re-check fails it after SLIP_PENDING_MAX_MINUTES;
 *  - unmatched: a sandbox bank transfer into the KBANK AUTO account from an account no member
 *    has, taken in by the bank feed's service (BankDepositService.feed, what its webhook calls),
 *    held unmatched;
 *  - chat: a message from that member to support (ChatService.send), unread in the inbox.
 * A step is recorded as made in the `demoQueue` setting once it is: a restart makes only the
 * steps not made yet (a sandbox switched off, the slip window closed), and never again one an
 * operator has since dealt with. A step that cannot be made is logged and skipped; the start
 * goes on.
 */
export async function seedDemoQueue(services: Services, log: FastifyBaseLogger, retiredHash: string): Promise<void> {
  const { accounts, settings } = services;
  const done = { ...(await settings.get<Done>(DONE_KEY, {})) };
  const steps: Array<[Step, () => Promise<string>]> = [
    ['withdrawal', () => withdrawal(services)],
    ['chat', () => chat(services)],
    ['slip', () => slip(services)],
    ['unmatched', () => unmatched(services)],
  ];
  const missing = steps.filter(([step]) => !done[step]);
  if (missing.length === 0) return;
  try {
    await accounts.ensureMember({ ...DEMO_QUEUE_MEMBER, sourceCode: 'FRIEND' }, retiredHash);
  } catch (error) {
    log.warn({ err: error }, 'demo queue: the second demo member could not be made; the queue is skipped');
    return;
  }
  for (const [step, make] of missing) {
    try {
      const what = await make();
      done[step] = new Date().toISOString();
      await settings.set(DONE_KEY, done);
      log.info({ step }, `demo queue: ${what}`);
    } catch (error) {
      log.warn({ step, err: error }, `demo queue: ${step} skipped (it is tried again at the next start)`);
    }
  }
}

async function withdrawal({ wallet }: Services): Promise<string> {
  const { id } = DEMO_QUEUE_MEMBER;
  // Keys of this member's own: a restart cut off between the two answers the first answer again, moving nothing.
  await wallet.add(id, TOP_UP, idempotencyOf('demo-queue-top-up', 'walletAdd', { amount: TOP_UP / 100 }));
  const answer = await wallet.withdraw(id, WITHDRAWAL, idempotencyOf('demo-queue-withdrawal', 'walletWithdraw', { amount: WITHDRAWAL / 100 }));
  return `pending withdrawal ${answer.reference} of ${WITHDRAWAL / 100} baht`;
}

async function chat({ chat }: Services): Promise<string> {
  const { id, username } = DEMO_QUEUE_MEMBER;
  const sent = await chat.send(
    { kind: 'member', memberId: id, username, guestId: null },
    { message: { message_type: 'text', payload: { message: DEMO_CHAT_TEXT } }, clientId: 'demo-queue-chat-1' },
    'th',
    'demo-seed',
  );
  return `unread chat message ${sent._id}`;
}

async function slip({ deposits }: Services): Promise<string> {
  const bank = deposits.sandboxBank;
  if (!bank) throw new Error('the sandbox bank is off (BANK_PROVIDER)');
  const { bankCode, bankAccountNo, bankAccountName } = DEMO_QUEUE_MEMBER;
  const at = new Date(Date.now() - 3 * 60_000);
  // The slip the member's bank app shows; the transfer is not in the bank's records (yet).
  const png = await bank.slipOf({
    transRef: newTransRef(at),
    fromBankCode: bankCode,
    fromAccountNo: bankAccountNo,
    fromName: bankAccountName,
    toBankCode: GSB_MANUAL.bankCode,
    toAccountNo: GSB_MANUAL.accountNo,
    toName: COMPANY,
    amount: SLIP_AMOUNT,
    currency: 'THB',
    at,
  });
  if (!png) throw new Error(`${bankCode} slips carry no QR`);
  const uploaded = await deposits.slips.upload(DEMO_QUEUE_MEMBER.id, png, deposits.slipMaxBytes);
  if (uploaded.status !== 'PENDING') throw new Error(`the slip was answered ${uploaded.status} ${uploaded.note ?? ''}`);
  return `slip ${uploaded.reference} in progress`;
}

async function unmatched({ deposits, accounts }: Services): Promise<string> {
  const bank = deposits.sandboxBank;
  if (!bank) throw new Error('the sandbox bank is off (BANK_PROVIDER)');
  // Money from an account a member registered would be that member's deposit, not an unmatched one.
  if (await accounts.findByBankAccount(STRANGER.bankCode, STRANGER.accountNo)) throw new Error(`a member has the account ${STRANGER.bankCode} ${STRANGER.accountNo}`);
  const { transfer } = await bank.transfer({
    fromBankCode: STRANGER.bankCode,
    fromAccountNo: STRANGER.accountNo,
    fromName: STRANGER.name,
    toBankCode: KBANK_AUTO.bankCode,
    toAccountNo: KBANK_AUTO.accountNo,
    toName: COMPANY,
    amount: UNMATCHED_AMOUNT,
    currency: 'THB',
    report: false,
  });
  // What the bank's feed webhook hands on (the server's routes are not up while seeding).
  const fed = await deposits.bank.feed(transfer);
  if (fed.result !== 'held') throw new Error(`the bank feed answered ${fed.result}`);
  return `unmatched deposit ${transfer.fromBankCode}/${transfer.transRef} of ${UNMATCHED_AMOUNT / 100} baht held`;
}
