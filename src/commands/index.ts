import CardGet from './card/get.js'
import CardTokenize from './card/tokenize.js'
import CardUpdate from './card/update.js'
import Listen from './listen.js'
import ListenReplay from './listen/replay.js'
import PurchaseCreate from './purchase/create.js'
import PurchaseGet from './purchase/get.js'
import RefundCreate from './refund/create.js'
import RefundGet from './refund/get.js'
import SandboxStart from './sandbox/start.js'
import SandboxStatus from './sandbox/status.js'
import SandboxStop from './sandbox/stop.js'

/** oclif's explicit command strategy: every command by id (test/unit/commands-index.test.ts keeps it whole). */
export const COMMANDS = {
  'card:get': CardGet,
  'card:tokenize': CardTokenize,
  'card:update': CardUpdate,
  listen: Listen,
  'listen:replay': ListenReplay,
  'purchase:create': PurchaseCreate,
  'purchase:get': PurchaseGet,
  'refund:create': RefundCreate,
  'refund:get': RefundGet,
  'sandbox:start': SandboxStart,
  'sandbox:status': SandboxStatus,
  'sandbox:stop': SandboxStop,
}
