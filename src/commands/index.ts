import Api from './api.js'
import CardGet from './card/get.js'
import CardTokenize from './card/tokenize.js'
import CardUpdate from './card/update.js'
import Completion from './completion.js'
import Help from './help.js'
import Listen from './listen.js'
import ListenReplay from './listen/replay.js'
import Login from './login.js'
import Logout from './logout.js'
import ProfileList from './profile/list.js'
import ProfileRemove from './profile/remove.js'
import ProfileShow from './profile/show.js'
import ProfileUse from './profile/use.js'
import CustomerCreate from './customer/create.js'
import CustomerDelete from './customer/delete.js'
import CustomerGet from './customer/get.js'
import CustomerUpdate from './customer/update.js'
import PlanCreate from './plan/create.js'
import PlanGet from './plan/get.js'
import PlanList from './plan/list.js'
import PlanUpdate from './plan/update.js'
import PurchaseCreate from './purchase/create.js'
import PurchaseGet from './purchase/get.js'
import RefundCreate from './refund/create.js'
import RefundGet from './refund/get.js'
import SandboxClock from './sandbox/clock.js'
import SandboxClockAdvance from './sandbox/clock/advance.js'
import SandboxStart from './sandbox/start.js'
import SandboxStatus from './sandbox/status.js'
import SandboxStop from './sandbox/stop.js'
import Status from './status.js'
import SandboxTrigger from './sandbox/trigger.js'
import SubscriptionCreate from './subscription/create.js'
import SubscriptionGet from './subscription/get.js'
import SubscriptionUpdate from './subscription/update.js'
import WebhookCreate from './webhook/create.js'
import WebhookDelete from './webhook/delete.js'
import WebhookList from './webhook/list.js'

/** oclif's explicit command strategy: every command by id (test/unit/commands-index.test.ts keeps it whole). */
export const COMMANDS = {
  api: Api,
  'card:get': CardGet,
  'card:tokenize': CardTokenize,
  'card:update': CardUpdate,
  completion: Completion,
  help: Help,
  listen: Listen,
  'listen:replay': ListenReplay,
  login: Login,
  logout: Logout,
  'profile:list': ProfileList,
  'profile:remove': ProfileRemove,
  'profile:show': ProfileShow,
  'profile:use': ProfileUse,
  'customer:create': CustomerCreate,
  'customer:delete': CustomerDelete,
  'customer:get': CustomerGet,
  'customer:update': CustomerUpdate,
  'plan:create': PlanCreate,
  'plan:get': PlanGet,
  'plan:list': PlanList,
  'plan:update': PlanUpdate,
  'purchase:create': PurchaseCreate,
  'purchase:get': PurchaseGet,
  'refund:create': RefundCreate,
  'refund:get': RefundGet,
  'sandbox:clock': SandboxClock,
  'sandbox:clock:advance': SandboxClockAdvance,
  'sandbox:start': SandboxStart,
  'sandbox:status': SandboxStatus,
  'sandbox:stop': SandboxStop,
  status: Status,
  'sandbox:trigger': SandboxTrigger,
  'subscription:create': SubscriptionCreate,
  'subscription:get': SubscriptionGet,
  'subscription:update': SubscriptionUpdate,
  'webhook:create': WebhookCreate,
  'webhook:delete': WebhookDelete,
  'webhook:list': WebhookList,
}
