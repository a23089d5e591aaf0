import type {Column} from '../output/columns.js'

/** How a table shows a profile (gw profile list/show/use). */
export const profileColumns: Column[] = [
  {label: 'Name', field: 'name'},
  {label: 'Active', field: 'active', format: 'boolean'},
  {label: 'Environment', field: 'environment'},
  {label: 'Base URL', field: 'base_url'},
  {label: 'Username', field: 'username'},
  {label: 'Read-only', field: 'read_only', format: 'boolean'},
  {label: 'Secret', field: 'secret'},
]
