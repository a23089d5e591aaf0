import type {Column} from './columns.js'

/** A plan's payments, at a terminal a table of their own under the plan (table.ts fieldList): "why was I charged on Friday?" */
export const planPaymentColumns: Column[] = [
  {label: 'Date', field: 'scheduled_date', format: 'date', need: 'always'},
  {label: 'Reference', field: 'reference', need: 'most'},
  {label: 'Amount', field: 'amount', format: 'money', need: 'most'},
  {label: 'Status', field: 'status', need: 'always'},
  {label: 'Id', field: 'id', need: 'id'},
  {label: 'Result', field: 'result', need: 'sometimes'},
]

// A plan's status is its outcome; its payments are listed under it, one record at a time.
export const paymentPlanColumns: Column[] = [
  {label: 'Id', field: 'id', need: 'id'},
  {label: 'Reference', field: 'reference', need: 'most'},
  {label: 'Customer', field: 'customer'},
  {label: 'Amount', field: 'amount', format: 'money', need: 'most'},
  {label: 'Frequency', field: 'frequency', need: 'sometimes'},
  {label: 'Anniversary', field: 'anniversary', need: 'seldom'},
  {label: 'Status', field: 'status', need: 'always'},
  {label: 'Start date', field: 'start_date', format: 'date', need: 'sometimes'},
  {label: 'End date', field: 'end_date', format: 'date', need: 'seldom'},
  {label: 'Total count', field: 'total_count', need: 'seldom'},
  {label: 'Setup fee', field: 'setup_fee', format: 'money', need: 'seldom'},
  {label: 'Created', field: 'created_at', format: 'datetime', need: 'seldom'},
  {label: 'Payments', field: 'payments', rows: planPaymentColumns, need: 'seldom'},
]

/** A debit's amount is in dollars (`dollars`: shown as 42.42 AUD); its status is its outcome. */
export const directDebitColumns: Column[] = [
  {label: 'Id', field: 'id', need: 'id'},
  {label: 'Reference', field: 'reference', need: 'sometimes'},
  {label: 'Date', field: 'date', format: 'date', need: 'most'},
  {label: 'Amount', field: 'amount', format: 'dollars', need: 'most'},
  {label: 'Status', field: 'status', need: 'always'},
  {label: 'Description', field: 'description', need: 'most'},
  {label: 'Account name', field: 'account_name', need: 'sometimes'},
  {label: 'BSB', field: 'bsb', need: 'seldom'},
  {label: 'Account number', field: 'account_number', need: 'seldom'},
  {label: 'Processed', field: 'process_date', format: 'date', need: 'seldom'},
  {label: 'Result', field: 'result', need: 'sometimes'},
]
