export * from './card.js'
export * from './common.js'
export * from './purchase.js'
export * from './refund.js'
