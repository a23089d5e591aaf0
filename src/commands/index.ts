import CardGet from './card/get.js'
import CardTokenize from './card/tokenize.js'
import CardUpdate from './card/update.js'
import Listen from './listen.js'
import ListenReplay from './listen/replay.js'
import Login from './login.js'
import Logout from './logout.js'
import ProfileList from './profile/list.js'
import ProfileRemove from './profile/remove.js'
import ProfileShow from './profile/show.js'
import ProfileUse from './profile/use.js'
import PurchaseCreate from './purchase/create.js'
import PurchaseGet from './purchase/get.js'
import RefundCreate from './refund/create.js'
import RefundGet from './refund/get.js'
import SandboxStart from './sandbox/start.js'
import SandboxStatus from './sandbox/status.js'
import SandboxStop from './sandbox/stop.js'
import Status from './status.js'

/** oclif's explicit command strategy: every command by id (test/unit/commands-index.test.ts keeps it whole). */
export const COMMANDS = {
  'card:get': CardGet,
  'card:tokenize': CardTokenize,
  'card:update': CardUpdate,
  listen: Listen,
  'listen:replay': ListenReplay,
  login: Login,
  logout: Logout,
  'profile:list': ProfileList,
  'profile:remove': ProfileRemove,
  'profile:show': ProfileShow,
  'profile:use': ProfileUse,
  'purchase:create': PurchaseCreate,
  'purchase:get': PurchaseGet,
  'refund:create': RefundCreate,
  'refund:get': RefundGet,
  'sandbox:start': SandboxStart,
  'sandbox:status': SandboxStatus,
  'sandbox:stop': SandboxStop,
  status: Status,
}
