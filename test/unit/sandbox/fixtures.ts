import type {CardRecord, PurchaseRecord, RefundRecord} from '../../../src/sandbox/domain/records.js'
import type {RuntimeInfo} from '../../../src/sandbox/server/runtime-file.js'

/** Records as the sandbox stores them, for tests of the store and its file. */
export function aCard(token: string, alias: string | null = null): CardRecord {
  return {
    token,
    card_holder: 'Jo Citizen',
    card_number: '512345XXXXXX2346',
    card_expiry: '2030-02-28',
    card_type: 'MasterCard',
    card_category: 'Credit',
    card_subcategory: 'Standard',
    card_issuer: 'Sandbox Bank',
    card_country: 'AU',
    authorized: true,
    transaction_count: 0,
    alias,
  }
}

export function aPurchase(id: string, reference: string, amount = 1000, successful = true): PurchaseRecord {
  return {
    id,
    authorization: successful ? '123456' : null,
    card_number: '512345XXXXXX2346',
    card_holder: 'Jo Citizen',
    card_expiry: '2030-02-28',
    card_type: 'MasterCard',
    card_category: 'Credit',
    card_subcategory: 'Standard',
    card_token: 'abcdefghij0123456789',
    amount,
    decimal_amount: amount / 100,
    successful,
    message: successful ? 'Approved' : 'Declined',
    reference,
    currency: 'AUD',
    settlement_date: '2026-11-23',
    transaction_date: '2026-11-22T19:31:05+11:00',
    response_code: successful ? '00' : '99',
    transaction_id: id,
    captured: successful,
    captured_amount: successful ? amount : 0,
    rrn: id.replaceAll('-', ''),
    cvv_match: 'M',
    metadata: {},
    addendum_data: {},
  }
}

export function aRefund(id: string, reference: string, purchaseId: string, amount: number): RefundRecord {
  return {
    id,
    authorization: '654321',
    amount: -amount,
    refunded: 'Approved',
    message: 'Approved',
    card_holder: 'Jo Citizen',
    card_number: '512345XXXXXX2346',
    card_expiry: '2030-02-28',
    card_type: 'MasterCard',
    successful: true,
    transaction_date: '2026-11-22T19:31:05+11:00',
    response_code: '00',
    reference,
    transaction_id: id,
    currency: 'AUD',
    settlement_date: '2026-11-23',
    metadata: {},
    standalone: false,
    rrn: id.replaceAll('-', ''),
    purchase_id: purchaseId,
  }
}

/** A runtime file's content as a gateway writes it (server.ts), with `extra` over it. */
export function aRuntimeInfo(extra: Partial<RuntimeInfo> & {port?: number} = {}): RuntimeInfo {
  const port = extra.port ?? 8787
  return {
    pid: process.pid,
    url: `http://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    mode: 'sandbox',
    dialect: 'contract',
    processingWindowMs: 2000,
    rateLimit: null,
    latencyMs: 0,
    webHookOrder: 'oldest',
    stateFile: null,
    startedAt: '2026-11-22T08:31:05.000Z',
    webhooks: [],
    merchants: [],
    requestLog: null,
    controlToken: 't'.repeat(43),
    ...extra,
  }
}
